package pipeline

import (
	"strings"
	"testing"

	"featurelab/imgproc"
)

func TestLoadChoices(t *testing.T) {
	tests := []struct {
		in      LoadChoices
		colour  imgproc.ColorMode
		w, h    int
		pca     int
		wantErr string
	}{
		{LoadChoices{}, imgproc.ColorAuto, 0, 0, DefaultPCA, ""},
		{LoadChoices{Colour: ColourGrey, Size: "64x48", PCA: "0"}, imgproc.ColorGray, 64, 48, 0, ""},
		{LoadChoices{Colour: ColourRGB, Size: " 32 × 24 ", PCA: "20"}, imgproc.ColorRGB, 32, 24, 20, ""},
		{LoadChoices{Size: "64"}, 0, 0, 0, 0, "size must look like 320x240"},
		{LoadChoices{Size: "0x5"}, 0, 0, 0, 0, "size must look like"},
		{LoadChoices{Size: "100000x100000"}, 0, 0, 0, 0, "exceeds"},
		{LoadChoices{PCA: "-1"}, 0, 0, 0, 0, "pca must be a whole number"},
		{LoadChoices{Colour: "sepia"}, 0, 0, 0, 0, "colour must be one of"},
	}
	for _, tc := range tests {
		req, err := tc.in.Request(Source{Sample: "dice"})
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%+v: error %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || req.Load.Color != tc.colour || req.Load.Width != tc.w || req.Load.Height != tc.h || req.PCA != tc.pca {
			t.Errorf("%+v: request %+v, %v", tc.in, req, err)
		}
	}
}
