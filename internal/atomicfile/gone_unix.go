//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// gone reports whether no process has the ID pid (signal 0 checks without sending).
func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
