// Package install test (scripts/test-packages go): a user's program that
// gets the Go binding from a module proxy and links the installed library.
// Theorem 3.4 with a deterministic crawl time: f proportional to the rates.
package main

import (
	"fmt"
	"math"
	"os"

	crawlsched "github.com/crawlsched/crawlsched/bindings/go"
)

func main() {
	rates := []float64{1, 2, 5}
	x, err := crawlsched.NewDeterministic(0.1)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer x.Close()
	m, err := crawlsched.NewFreshnessModel(x, rates, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer m.Close()
	f, err := m.OptimalFrequencies()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i, r := range rates {
		if math.Abs(f[i]-r/8) > 1e-12 {
			fmt.Fprintf(os.Stderr, "f[%d] = %v, expected %v\n", i, f[i], r/8)
			os.Exit(1)
		}
	}
	fmt.Printf("go module: crawlsched %s, plan %v\n", crawlsched.Version(), f)
}
