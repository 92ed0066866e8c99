//go:build unix

package procfs

import "syscall"

// addressLimit is the soft RLIMIT_AS of the process.
func addressLimit() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == ^uint64(0) {
		return 0, false
	}
	return r.Cur, true
}
