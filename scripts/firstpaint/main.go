// Command firstpaint measures how soon the window shows its built-in sample: it starts
// the application on an X display (Xvfb) and polls two screen regions, straight from the
// X server, until each has been drawn: the Run button (the window is up) and the first
// thumbnail (the sample is on screen). It prints both in milliseconds after the launch.
//
//	DISPLAY=:99 go run ./scripts/firstpaint bin/featurelab
//
// It speaks the few X11 requests it needs itself (connection set-up and GetImage), so
// that the project needs no X library for a measurement.
package main

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"time"
)

type region struct {
	name       string
	x, y, w, h int
	colours    int // drawn once it has more distinct colours than this
}

func main() {
	timeout := flag.Duration("timeout", 15*time.Second, "give up after")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: firstpaint [-timeout 15s] BINARY [ARGS...]")
		os.Exit(2)
	}
	// Where the window at its first size (1024×700) puts them at FYNE_SCALE=1 under Xvfb
	// (no window manager): the Run button, and the first thumbnail of the data set.
	regions := []region{
		{"window", 10, 620, 100, 28, 3},
		{"thumbnail", 260, 195, 100, 70, 100},
	}
	if err := run(flag.Args(), regions, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "firstpaint:", err)
		os.Exit(1)
	}
}

func run(command []string, regions []region, timeout time.Duration) error {
	x, err := dial(os.Getenv("DISPLAY"))
	if err != nil {
		return err
	}
	defer x.conn.Close()
	app := exec.Command(command[0], command[1:]...)
	app.Stdout, app.Stderr = io.Discard, io.Discard
	start := time.Now()
	if err := app.Start(); err != nil {
		return err
	}
	defer func() { app.Process.Kill(); app.Wait() }()
	seen := make([]time.Duration, len(regions))
	left := len(regions)
	for left > 0 && time.Since(start) < timeout {
		for i, r := range regions {
			if seen[i] != 0 {
				continue
			}
			pix, err := x.getImage(r.x, r.y, r.w, r.h)
			if err != nil {
				return err
			}
			if distinct(pix) > r.colours {
				seen[i] = time.Since(start)
				left--
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	var out []string
	for i, r := range regions {
		if seen[i] == 0 {
			return fmt.Errorf("%s not drawn within %v", r.name, timeout)
		}
		out = append(out, fmt.Sprintf("%s_ms=%d", r.name, seen[i].Milliseconds()))
	}
	fmt.Println(strings.Join(out, " "))
	return nil
}

// distinct counts the colours of 32-bit ZPixmap pixels.
func distinct(pix []byte) int {
	seen := map[uint32]bool{}
	for i := 0; i+3 < len(pix); i += 4 {
		seen[binary.LittleEndian.Uint32(pix[i:])&0xffffff] = true
	}
	return len(seen)
}

// xconn is a connection to an X server that accepts local clients without
// authorisation, as Xvfb does by default.
type xconn struct {
	conn net.Conn
	root uint32
}

func dial(display string) (*xconn, error) {
	n, ok := strings.CutPrefix(display, ":")
	if !ok {
		return nil, fmt.Errorf("DISPLAY %q is not a local display like :99", display)
	}
	n, _, _ = strings.Cut(n, ".")
	conn, err := net.Dial("unix", "/tmp/.X11-unix/X"+n)
	if err != nil {
		return nil, err
	}
	// Set-up request: little-endian, protocol 11.0, no authorisation.
	setup := []byte{'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if _, err := conn.Write(setup); err != nil {
		conn.Close()
		return nil, err
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(conn, head); err != nil {
		conn.Close()
		return nil, err
	}
	body := make([]byte, int(binary.LittleEndian.Uint16(head[6:]))*4)
	if _, err := io.ReadFull(conn, body); err != nil {
		conn.Close()
		return nil, err
	}
	if head[0] != 1 {
		conn.Close()
		return nil, errors.New("the X server refused the connection (authorisation needed?)")
	}
	// The first screen's root window follows the vendor string and the pixmap formats.
	vendor := int(binary.LittleEndian.Uint16(body[16:]))
	formats := int(body[21])
	at := 32 + (vendor+3)/4*4 + 8*formats
	return &xconn{conn: conn, root: binary.LittleEndian.Uint32(body[at:])}, nil
}

// getImage reads a rectangle of the root window as ZPixmap data.
func (x *xconn) getImage(left, top, w, h int) ([]byte, error) {
	req := make([]byte, 20)
	req[0], req[1] = 73, 2 // GetImage, ZPixmap
	binary.LittleEndian.PutUint16(req[2:], 5)
	binary.LittleEndian.PutUint32(req[4:], x.root)
	binary.LittleEndian.PutUint16(req[8:], uint16(left))
	binary.LittleEndian.PutUint16(req[10:], uint16(top))
	binary.LittleEndian.PutUint16(req[12:], uint16(w))
	binary.LittleEndian.PutUint16(req[14:], uint16(h))
	binary.LittleEndian.PutUint32(req[16:], 0xffffffff)
	if _, err := x.conn.Write(req); err != nil {
		return nil, err
	}
	head := make([]byte, 32)
	if _, err := io.ReadFull(x.conn, head); err != nil {
		return nil, err
	}
	if head[0] != 1 {
		return nil, fmt.Errorf("GetImage failed (X error %d)", head[1])
	}
	data := make([]byte, int(binary.LittleEndian.Uint32(head[4:]))*4)
	_, err := io.ReadFull(x.conn, data)
	return data, err
}
