package cache

import (
	"sync"
	"testing"
)

// TestTableKeepsAtMostSize: what is put is got back; the value after Size forgets the
// others; Reset forgets all; a nil table keeps nothing; concurrent use is safe (the race
// pass).
func TestTableKeepsAtMostSize(t *testing.T) {
	var tb Table[int, string]
	if _, ok := tb.Get(1); ok {
		t.Fatal("an empty table holds 1")
	}
	for i := range Size {
		tb.Put(i, "v")
	}
	if v, ok := tb.Get(Size - 1); !ok || v != "v" {
		t.Fatalf("Get(%d) = %q, %v", Size-1, v, ok)
	}
	tb.Put(Size, "last")
	if _, ok := tb.Get(0); ok {
		t.Error("a full table kept its old values")
	}
	if v, ok := tb.Get(Size); !ok || v != "last" {
		t.Errorf("Get(%d) = %q, %v after the table filled", Size, v, ok)
	}
	tb.Reset()
	if _, ok := tb.Get(Size); ok {
		t.Error("Reset kept a value")
	}
	var none *Table[int, string]
	none.Put(1, "x")
	if _, ok := none.Get(1); ok {
		t.Error("a nil table kept a value")
	}
	none.Reset()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 2 * Size {
				tb.Put(w*1000+i, "c")
				tb.Get(i)
			}
		})
	}
	wg.Wait()
}
