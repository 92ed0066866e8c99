//go:build !unix

package cli

import "errors"

// mkfifo: there are no FIFOs in the file system outside Unix; the test that wants one skips.
func mkfifo(string) error { return errors.New("no FIFOs on this system") }
