package app

import (
	"slices"

	"featurelab/algorithms"
)

// Session is what the window has open: the prepared data set and the latest result of
// each algorithm run on it, so two can be compared. Use it from one goroutine (the UI's).
type Session struct {
	Prepared *Prepared
	results  map[*algorithms.Algorithm]*Presentation
	order    []*algorithms.Algorithm // in the order their latest results arrived
}

// NewSession returns an empty session.
func NewSession() *Session {
	return &Session{results: map[*algorithms.Algorithm]*Presentation{}}
}

// SetData replaces the data set; the results of the previous one no longer apply.
func (s *Session) SetData(p *Prepared) {
	s.Prepared = p
	clear(s.results)
	s.order = nil
}

// Add keeps p as the latest result of its algorithm, unless it was computed on another
// data set than the one open now (a run that finished after the user opened a new folder).
func (s *Session) Add(p *Presentation) bool {
	if p == nil || p.Analysis == nil || s.Prepared == nil || p.Analysis.Data != s.Prepared.Data {
		return false
	}
	algo := p.Analysis.Algorithm
	s.order = slices.DeleteFunc(s.order, func(a *algorithms.Algorithm) bool { return a == algo })
	s.order = append(s.order, algo)
	s.results[algo] = p
	return true
}

// Result is the latest result of an algorithm, or nil.
func (s *Session) Result(algo *algorithms.Algorithm) *Presentation { return s.results[algo] }

// Algorithms lists the algorithms with a result, oldest first.
func (s *Session) Algorithms() []*algorithms.Algorithm { return slices.Clone(s.order) }
