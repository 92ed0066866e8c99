// Package cosegment segments a folder of images together with the hard hierarchical
// Dirichlet process (Jiang, Kulis & Jordan, "Small-Variance Asymptotics for Exponential
// Family Dirichlet Process Mixture Models", NIPS 2012, §4, eq. 4): every image is a
// group, small cells of its pixels are the group's points, and each image's local
// segments are tied to global clusters that all images share — so one global cluster is
// the same stuff wherever it appears, the table in every tabletop photo.
package cosegment
