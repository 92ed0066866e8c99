//go:build !unix

package atomicfile

// gone cannot tell here whether a process runs, so no temporary file is taken for stale.
func gone(int) bool { return false }
