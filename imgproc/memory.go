package imgproc

import (
	"fmt"
	"image"

	"featurelab/internal/procfs"
)

// bytesPerSample is the memory one sample of the data matrix takes (float32).
const bytesPerSample = 4

// DataBytes is the memory the data matrix of n images of p samples each takes.
func DataBytes(n, p int) int64 { return int64(n) * int64(p) * bytesPerSample }

// availableMemory is the memory the machine has free (Linux's MemAvailable), in bytes, or
// 0 where it does not say.
func availableMemory() int64 { return procfs.KB("/proc/meminfo", "MemAvailable") }

// MemoryBudget is the memory a load and its run may take when Options.Memory is 0: half
// of what the machine has free, or DefaultMemory where it does not say.
func MemoryBudget() int64 {
	if free := availableMemory(); free > 0 {
		return free / 2
	}
	return DefaultMemory
}

// BytesText formats a size in bytes for a message: "11.5 GB", "640 MB".
func BytesText(b int64) string { return bytesText(b) }

// bytesText formats a size in bytes for a message: "11.5 GB", "640 MB".
func bytesText(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d kB", (b+1023)>>10)
}

// smallerAdvice says how to load ds within the memory budget: the largest working size at
// its aspect ratio that fits, and grey where it is colour. perSample is the bytes the
// load and the run need per sample of the data matrix, which the PCA's share makes more
// than bytesPerSample.
func smallerAdvice(ds *Dataset, opt Options, perSample float64) string {
	n := int64(len(ds.Names))
	px := int64(float64(opt.Memory) / perSample / float64(n) / float64(ds.Channels)) // pixels per image that fit
	advice := "fewer images"
	if px >= 1 {
		size := workingSize(image.Pt(ds.Width, ds.Height), image.Point{}, px)
		advice = fmt.Sprintf("load them at %dx%d or smaller (--size, the Dataset panel's Size)", size.X, size.Y)
	}
	if ds.Channels == 3 {
		advice += " or in grey (--gray), a third of the memory"
	}
	return advice
}
