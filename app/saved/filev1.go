package saved

import (
	"fmt"

	"featurelab/app/pipeline"
)

// Version 1 of the file had a result of its own shape: Z as strings of 0/1, A row-major
// with its dimensions in "data", every float a jsonFloat, and the reading, stability and
// timings beside the result. upgrade reads such a file into the version-2 form, so that
// one check reads both, and with the values result.json writes through Finite written
// so: a reopened version-1 analysis shows what its result.json showed.

type savedFileV1 struct {
	Source    savedSource         `json:"source"`
	Load      savedLoad           `json:"load"`
	Algorithm string              `json:"algorithm"`
	Options   savedOptions        `json:"options"`
	Data      savedDataV1         `json:"data"`
	Result    savedResultV1       `json:"result"`
	Seconds   pipeline.Timings    `json:"seconds"`
	Peak      pipeline.PeakMemory `json:"peak_memory_bytes"`
	Reading   string              `json:"reading"`
	Other     *savedPathFit       `json:"other_reading"`
	Stability []float64           `json:"stability"`
	Encoder   *savedEncoder       `json:"encoder"`
}

// savedDataV1 is the fingerprint of the data the result belongs to.
type savedDataV1 struct {
	Names    []string `json:"names"`
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Channels int      `json:"channels"`
	D        int      `json:"d"` // columns of the PCA scores (the pixel values without a PCA)
}

// savedResultV1 is version 1's result; its algorithm, always the file's, and the
// learner's seconds, which nothing reads, are left unread.
type savedResultV1 struct {
	K                  int        `json:"k"`
	Z                  []string   `json:"z"` // N rows of K characters '0' or '1'
	A                  jsonFloats `json:"a"` // K × D, row-major
	Objective          jsonFloat  `json:"objective"`
	PosteriorObjective jsonFloat  `json:"posterior_objective"`
	BPObjective        jsonFloat  `json:"bp_objective"`
	RestartObjectives  jsonFloats `json:"restart_objectives"`
	Curve              []struct {
		K           int       `json:"k"`
		Objective   jsonFloat `json:"objective"`
		BPObjective jsonFloat `json:"bp_objective"`
	} `json:"curve"`
	Iterations  int              `json:"iterations"`
	Lambda2     jsonFloat        `json:"lambda2"`
	Alpha       jsonFloat        `json:"alpha"`
	SigmaX      jsonFloat        `json:"sigma_x"`
	SigmaA      jsonFloat        `json:"sigma_a"`
	KHistogram  []int            `json:"k_histogram"`
	Trace       *traceV1         `json:"trace"`
	MAPZ        *savedAllocation `json:"map_z"`
	MAPLogJoint jsonFloat        `json:"map_log_joint"`
	PathFits    []savedPathFit   `json:"path_fits"`
}

// traceV1 is the IBP's trace with its K, which version 2 keeps in result.k_trace.
type traceV1 struct {
	K []int `json:"k"`
	savedTrace
}

// upgrade turns a version-1 file into the version-2 form. It fills the fields of the
// result that saved reads, not those result.json works out from the data (codes, per
// feature effects, residuals…), which a reopened analysis works out again.
func (o *savedFileV1) upgrade() (*savedFile, error) {
	d, r := o.Data, o.Result
	if err := checkSize("data", len(d.Names), d.Width, d.Height, d.Channels); err != nil {
		return nil, err
	}
	if err := checkD("data d", d.D, d.Width, d.Height, d.Channels); err != nil {
		return nil, err
	}
	if r.K < 1 || r.K > maxSavedK {
		return nil, fmt.Errorf("result k must be 1…%d, got %d", maxSavedK, r.K)
	}
	if int64(len(r.A)) != int64(r.K)*int64(d.D) {
		return nil, fmt.Errorf("result a has %d numbers, want k × d = %d × %d = %d", len(r.A), r.K, d.D, int64(r.K)*int64(d.D))
	}
	z, err := allocation("result z", r.Z, len(d.Names), r.K)
	if err != nil {
		return nil, err
	}
	full := FullResult{Summary: Summary{
		Algorithm:          o.Algorithm,
		NImages:            len(d.Names),
		Width:              d.Width,
		Height:             d.Height,
		Channels:           d.Channels,
		K:                  r.K,
		Lambda2:            Finite(float64(r.Lambda2)),
		Objective:          Finite(float64(r.Objective)),
		BPObjective:        Finite(float64(r.BPObjective)),
		Restarts:           len(r.RestartObjectives),
		Seed:               o.Options.Options.Seed,
		Iterations:         r.Iterations,
		Reading:            o.Reading,
		Names:              d.Names,
		Seconds:            o.Seconds,
		PeakMemory:         o.Peak,
		PosteriorObjective: Finite(float64(r.PosteriorObjective)),
		Alpha:              Finite(float64(r.Alpha)),
		SigmaX:             Finite(float64(r.SigmaX)),
		SigmaA:             Finite(float64(r.SigmaA)),
		KHistogram:         r.KHistogram,
	}}
	for _, c := range r.Curve {
		full.Curve = append(full.Curve, CurvePoint{K: c.K, Objective: Finite(float64(c.Objective)), BPObjective: Finite(float64(c.BPObjective))})
	}
	for i := range len(d.Names) {
		row := make([]uint8, r.K)
		for j, v := range z.RawRowView(i) {
			row[j] = uint8(v)
		}
		full.Z = append(full.Z, row)
	}
	for k := range r.K {
		full.A = append(full.A, r.A[k*d.D:(k+1)*d.D])
	}
	if r.Trace != nil {
		full.KTrace = r.Trace.K
	}
	for _, v := range r.RestartObjectives {
		full.RestartObjectives = append(full.RestartObjectives, Finite(v))
	}
	for k, v := range o.Stability {
		full.PerFeature = append(full.PerFeature, FeatureSummary{Feature: k + 1, Stability: &v})
	}
	f := &savedFile{
		Format:   savedFormat,
		Version:  savedVersion,
		Source:   o.Source,
		Load:     o.Load,
		Options:  o.Options,
		Result:   full,
		PathFits: r.PathFits,
		Encoder:  o.Encoder,
	}
	if r.Trace != nil || r.MAPZ != nil || r.MAPLogJoint != 0 {
		f.IBP = &savedIBP{MAPZ: r.MAPZ, MAPLogJoint: r.MAPLogJoint}
		if r.Trace != nil {
			f.IBP.Trace = &r.Trace.savedTrace
		}
	}
	if other := o.Other; other != nil {
		if other.K != r.K {
			return nil, fmt.Errorf("other_reading k is %d, the result's %d", other.K, r.K)
		}
		f.Other = &savedReading{Z: other.Z, A: other.A}
	}
	return f, nil
}
