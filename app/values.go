package app

import (
	"featurelab/algorithms/cosegment"
	"featurelab/algorithms/learn"
	"featurelab/algorithms/segment"
	"featurelab/algorithms/selection"
	"featurelab/app/encoding"
	"featurelab/app/jobs"
	"featurelab/app/pipeline"
	"featurelab/app/report"
	"featurelab/app/result"
	"featurelab/app/saved"
	"featurelab/app/segmenting"
	"featurelab/imgproc"
)

// The values the window holds between clicks, named here so that the window reads one
// package: each is the subpackage's own type, not a copy.

// Background work and what it reports.
type (
	// Progress is a job's report: the share done, the time left and the stage.
	Progress = jobs.Progress
	// Runner starts background work; the window's runs each job on a new goroutine, tests
	// inject one they can wait on.
	Runner = jobs.Runner
	// Manager runs at most one background job per kind and lets the user cancel it.
	Manager = jobs.Manager
)

// A data set, from the request to the prepared data.
type (
	// Source is where a data set comes from: a folder, or a built-in sample by name.
	Source = pipeline.Source
	// Request is what a load and a run are asked for: the source, its loading options,
	// the learner and its options.
	Request = pipeline.Request
	// LoadChoices are the loading options a user sets as text.
	LoadChoices = pipeline.LoadChoices
	// Prepared is a loaded data set with its PCA, ready for any learner.
	Prepared = pipeline.Prepared
	// Description is what a learner reads of each image (PCA scores, a histogram, visual words).
	Description = pipeline.Description
	// RunOptions are a learner's settings for one run.
	RunOptions = learn.Options
)

// A run's result, as read and as shown.
type (
	// Analysis is a run's result read as a scene: base, features, codes.
	Analysis = result.Analysis
	// Feature is one learned feature with its reading.
	Feature = result.Feature
	// FeatureMatch pairs a feature of one analysis with one of another, by the Jaccard
	// index of their owners.
	FeatureMatch = result.FeatureMatch
	// Presentation is an analysis with everything the window draws of it.
	Presentation = report.Presentation
	// PathEntry is one K of a stepwise run's λ² path: the best K for every λ² from Low to High.
	PathEntry = selection.PathEntry
	// SavedAnalysis is an analysis opened from a .featurelab file.
	SavedAnalysis = saved.Analysis
	// Code is one new picture's code under a saved analysis.
	Code = encoding.Code
	// AppliedFolder is a folder coded with an analysis, ready to show and export.
	AppliedFolder = report.AppliedFolder
	// CodeCount is how many images share one binary code.
	CodeCount = report.CodeCount
)

// Segmentation of one picture, and of a folder together.
type (
	// SegmentOptions are the settings of one picture's segmentation.
	SegmentOptions = segment.Options
	// CosegmentOptions are the settings of a folder's co-segmentation.
	CosegmentOptions = cosegment.Options
	// Segmentation is one segmented picture.
	Segmentation = segmenting.Segmentation
	// SegmentPictures is a segmentation ready to show: original, segments, boundaries.
	SegmentPictures = segmenting.Pictures
	// Cosegmentation is a folder of pictures segmented together.
	Cosegmentation = segmenting.Cosegmentation
	// ClusterLegend is one cluster of a co-segmentation as its legend lists it.
	ClusterLegend = segmenting.ClusterLegend
)

// The defaults and choices a window offers.
const (
	DefaultSample        = pipeline.DefaultSample       // the built-in data set the window opens with
	DefaultPCA           = pipeline.DefaultPCA          // PCA components kept by default
	DefaultWorkingPixels = imgproc.DefaultWorkingPixels // a larger picture is reduced to this many pixels
	ThumbnailSize        = pipeline.ThumbnailSize       // the side of a data set's thumbnails, in pixels
	ColourAuto           = pipeline.ColourAuto          // colour when any picture has it
	ExposureAuto         = pipeline.ExposureAuto        // exposure measured, and taken out where told
	ExposureNone         = pipeline.ExposureNone        // pictures as they are
	FeaturesPCA          = pipeline.FeaturesPCA         // a learner reads the PCA scores
	FeaturesHistogram    = pipeline.FeaturesHistogram   // a learner reads colour histograms
	FeaturesWords        = pipeline.FeaturesWords       // a learner reads visual words
	AlphaGamma           = learn.AlphaGamma             // the IBP's α drawn from its Gamma prior
	MethodKPYP           = segment.MethodKPYP           // kernel Pitman-Yor segmentation
	SavedExt             = saved.Ext                    // a saved analysis's file extension
	CodesFile            = report.CodesFile             // a run's codes, in its output folder
	ResultFile           = report.ResultFile            // a run's result, in its output folder
	FeaturesFile         = report.FeaturesFile          // a run's feature grid, in its output folder
	PlotExplained        = report.PlotExplained         // explained variance of the PCA
	PlotCurve            = report.PlotCurve             // objective against K
	PlotRestarts         = report.PlotRestarts          // objective over restarts
	PlotTraceK           = report.PlotTraceK            // the IBP's K per sweep
	PlotTraceHyp         = report.PlotTraceHyp          // the IBP's hyperparameters per sweep
	PlotLogJoint         = report.PlotLogJoint          // the IBP's log joint per sweep
	PlotKHist            = report.PlotKHist             // the IBP's histogram of K
	PlotExposure         = report.PlotExposure          // each picture's exposure
)

// ColourChoices and ExposureChoices are the loading options' choices, in the order the
// window lists them; PictureExtensions the files a folder's pictures are read from.
var (
	ColourChoices     = pipeline.ColourChoices
	ExposureChoices   = pipeline.ExposureChoices
	PictureExtensions = imgproc.PictureExtensions
)

// ErrFolderChanged says that a saved analysis's folder changed since it was saved.
var ErrFolderChanged = saved.ErrFolderChanged
