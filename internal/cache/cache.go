// Package cache keeps values worked out once, by key, for the work that asks for them
// again: the readings of a fit a window draws several times over, the fits of a λ² path
// that the objects rule reads twice.
package cache

import "sync"

// Size bounds the values a Table keeps: a λ² path has a few dozen K.
const Size = 256

// Table keeps at most Size values by key; a value put into a full table forgets the
// others first. The zero Table is ready to use, a nil one keeps nothing, and both are
// safe for concurrent use.
type Table[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// Get is the value kept for key, if any.
func (t *Table[K, V]) Get(key K) (v V, ok bool) {
	if t == nil {
		return v, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok = t.m[key]
	return v, ok
}

// Put keeps v for key.
func (t *Table[K, V]) Put(key K, v V) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil || len(t.m) >= Size {
		t.m = map[K]V{}
	}
	t.m[key] = v
}

// Reset forgets every value.
func (t *Table[K, V]) Reset() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m = nil
}
