package pipeline

// PCAOptions lets the external tests see how a request's data are projected.
var PCAOptions = Request.pcaOptions
