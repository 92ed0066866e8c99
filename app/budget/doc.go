// Package budget is the memory plan of a run, made before the data matrix is: how much
// the user allows (Env, FromEnv), what a run on n images will hold at its peak beyond
// their pixels (Run: the converted pictures, the PCA's fit and model, the learner with
// the reading of its fits in pixel space), and the Go runtime's soft limit for each stage
// (Next, Stage), so that a folder that would not fit is refused in one line instead of
// ending in an out-of-memory trace half-way, and the peak stays near what is live.
// PeakResident reads what the process held at its peak. docs/DESIGN.md has the plan
// against the measured peaks.
package budget
