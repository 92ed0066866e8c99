// Package parallel holds the one parallel-for of the numeric packages (pca and
// algorithms/segment): tasks are handed out from a shared counter, so uneven tasks balance
// themselves, and every task learns which worker runs it, so it can use per-worker scratch
// without a lock. It imports only the standard library, so any layer may use it.
package parallel
