//go:build !unix

package main

import "os"

// maxRSS: getrusage's peak resident memory exists on Unix only; 0 elsewhere.
func maxRSS(*os.ProcessState) int64 { return 0 }
