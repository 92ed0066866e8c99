package features

import "featurelab/algorithms/learn"

// BP-means is the start of the IBP sampler's Init "bpmeans"; registering it in learn lets
// algorithms/ibp use it without importing this package.
func init() { learn.RegisterStart("bpmeans", BPMeans) }
