//go:build !unix

package procfs

// addressLimit: there is no RLIMIT_AS outside Unix (Windows), so no address-space limit.
func addressLimit() (uint64, bool) { return 0, false }
