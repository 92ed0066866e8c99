// Package views is the Feature Lab window: it lays out the panels with Fyne containers and
// reacts to the user's choices. All work happens in package app on background jobs; every
// widget update from a job goes through fyne.Do. Views never compute anything themselves.
package views
