// Package parallel holds the one parallel-for of the numeric packages (pca,
// algorithms/cluster and algorithms/segment): tasks are handed out from a shared counter,
// so uneven tasks balance themselves, and every task learns which worker runs it, so it
// can use per-worker scratch without a lock. ForChunks splits a range of rows into chunks
// fixed by the number of rows alone, so partial sums added in chunk order give the same
// result for any number of workers. It imports only the standard library, so any layer
// may use it.
package parallel
