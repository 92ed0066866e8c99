package samplegen

import (
	"fmt"
	"testing"
)

func TestScratchObjEnergy(t *testing.T) {
	base := tableBase()
	light := tableLight()
	lit := func(c *canvas) *canvas {
		for i := range c.pix {
			c.pix[i] *= light[i/3]
		}
		return c
	}
	b := lit(base.clone())
	draw := []func(c *canvas, dx, dy float64){drawMug, drawBook, drawBanana, drawPhone}
	line := ""
	for j, d := range draw {
		c := base.clone()
		d(c, 0, 0)
		lit(c)
		ec, eg := 0.0, 0.0
		for i := 0; i < len(c.pix); i += 3 {
			var g float64
			for k := 0; k < 3; k++ {
				dd := c.pix[i+k] - b.pix[i+k]
				ec += dd * dd
				g += []float64{0.299, 0.587, 0.114}[k] * dd
			}
			eg += g * g
		}
		line += fmt.Sprintf(" %s: colour %.1f gray %.1f;", tabletopFeatures[j], ec/63, eg/63)
	}
	t.Log(line)
}
