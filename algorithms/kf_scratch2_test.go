package algorithms

import (
	"bufio"
	"encoding/binary"
	"context"
	"image"
	_ "image/jpeg"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func readPPM(t *testing.T, path string) []float64 {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var toks []string
	for len(toks) < 4 {
		b, _ := r.ReadByte()
		if b == '#' {
			r.ReadString('\n')
			continue
		}
		if b == ' ' || b == '\n' || b == '\t' || b == '\r' {
			continue
		}
		s := string(b)
		for {
			c, _ := r.ReadByte()
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
				break
			}
			s += string(c)
		}
		toks = append(toks, s)
	}
	w, _ := strconv.Atoi(toks[1])
	h, _ := strconv.Atoi(toks[2])
	buf := make([]byte, w*h*3)
	if _, err := io_ReadFull(r, buf); err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(buf))
	for i, v := range buf {
		out[i] = float64(v) / 255
	}
	return out
}

func io_ReadFull(r *bufio.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := r.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func readJPEGGo(t *testing.T, path string) []float64 {
	f, _ := os.Open(path)
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	out := make([]float64, 0, b.Dx()*b.Dy()*3)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			out = append(out, float64(r>>8)/255, float64(g>>8)/255, float64(bb>>8)/255)
		}
	}
	return out
}

func saveBin(t *testing.T, path string, X *mat.Dense) {
	n, d := X.Dims()
	f, _ := os.Create(path)
	defer f.Close()
	binary.Write(f, binary.LittleEndian, int32(n))
	binary.Write(f, binary.LittleEndian, int32(d))
	binary.Write(f, binary.LittleEndian, X.RawMatrix().Data)
}

func centred(rows [][]float64) *mat.Dense {
	n, d := len(rows), len(rows[0])
	X := mat.NewDense(n, d, nil)
	s := 1 / math.Sqrt(float64(n-1))
	for i, r := range rows {
		for j, v := range r {
			X.Set(i, j, v*s)
		}
	}
	for j := 0; j < d; j++ {
		var m float64
		for i := 0; i < n; i++ {
			m += X.At(i, j)
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			X.Set(i, j, X.At(i, j)-m)
		}
	}
	return X
}

func TestScratchDecoders(t *testing.T) {
	files, _ := filepath.Glob("/work/shared/data/tabletop/*.jpg")
	sort.Strings(files)
	var goRows, imRows [][]float64
	for _, f := range files {
		goRows = append(goRows, readJPEGGo(t, f))
		base := filepath.Base(f)
		imRows = append(imRows, readPPM(t, "/tmp/kfscratch/ppm/"+base[:len(base)-4]+".ppm"))
	}
	for name, rows := range map[string][][]float64{"go": goRows, "libjpeg": imRows} {
		X := lqFactor(centred(rows))
		saveBin(t, "/tmp/kfscratch/tabletop_"+name+".bin", X)
		tot := mat.Norm(X, 2)
		var objs []float64
		for k := 1; k <= 8; k++ {
			res, err := KFeatures(context.Background(), X, Options{K: k, Restarts: 300, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			objs = append(objs, math.Round(res.Objective*1000)/1000)
		}
		t.Logf("%s: total %.4f objs %v", name, tot*tot, objs)
	}
}
