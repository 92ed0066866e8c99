package cli

import (
	"syscall"
	"unsafe"
)

// releaseConsole closes the console window Windows opened for this process alone, as it
// does for a console program started from the Start menu or Explorer, before the window
// opens; a console the user typed the command in is shared with the shell and stays.
// featurelab.exe is a console program so that its commands print in cmd and PowerShell,
// which wait for them to finish.
func releaseConsole() {
	kernel32 := syscall.NewLazyDLL("kernel32.dll")
	list, free := kernel32.NewProc("GetConsoleProcessList"), kernel32.NewProc("FreeConsole")
	if list.Find() != nil || free.Find() != nil {
		return
	}
	var pids [2]uint32
	if n, _, _ := list.Call(uintptr(unsafe.Pointer(&pids[0])), uintptr(len(pids))); n == 1 {
		free.Call()
	}
}
