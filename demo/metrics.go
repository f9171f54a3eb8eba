package main

import "math"

// Measured is what a mode achieved, computed exactly from the server's
// ground truth (change times) and the crawler's log over a window.
type Measured struct {
	// Freshness is the time-average fraction of pages whose indexed
	// version is current.
	Freshness float64 `json:"freshness"`
	// NewsFreshness is the same over the pages with a daily pattern.
	NewsFreshness float64 `json:"news_freshness"`
	// AgeHours is the time-average age of the index: a stale page's age is
	// the time since the first change the index missed (0 when fresh).
	AgeHours float64 `json:"age_hours"`
	// MissedChanges is the fraction of changes overwritten by a later
	// change before any crawl saw them (changes still pending at the end
	// of the window are not counted either way).
	MissedChanges float64 `json:"missed_changes"`
	// StdErr is the standard error of Freshness (batch means over bins).
	StdErr float64 `json:"freshness_std_error"`
}

// Series is freshness per time bin (for the plot).
type Series struct {
	BinHours  float64   `json:"bin_hours"`
	Freshness []float64 `json:"freshness"`
}

// Measure integrates freshness, age and missed changes of a crawler's log
// over [from, to], and freshness per bin of width bin over [0, to].
func Measure(site *Site, log [][]Fetch, from, to, bin float64) (Measured, Series) {
	if !(to > from) || !(bin > 0) {
		return Measured{}, Series{BinHours: bin} // nothing ran (an early Ctrl-C)
	}
	nb := int(math.Ceil(to / bin))
	bins := make([]float64, nb)
	var fresh, newsFresh, age float64
	var missed, captured, news int
	for i, p := range site.Pages {
		ch := p.Changes
		fetches := log[i]
		if p.News {
			news++
		}
		// Segments between fetches; before the first fetch the page is not
		// in the index: stale since 0.
		for k := -1; k < len(fetches); k++ {
			x, y := 0.0, to
			staleFrom := 0.0
			if k >= 0 {
				x = fetches[k].T
				v := int(fetches[k].Version)
				staleFrom = math.Inf(1)
				if v < len(ch) {
					staleFrom = ch[v]
				}
			}
			if k+1 < len(fetches) {
				y = fetches[k+1].T
			}
			if y > to {
				y = to
			}
			if x >= y {
				continue
			}
			// Fresh on [x, min(y, staleFrom)).
			fy := math.Min(y, staleFrom)
			if fy > x {
				addBins(bins, bin, x, fy)
				f := overlap(x, fy, from, to)
				fresh += f
				if p.News {
					newsFresh += f
				}
			}
			// Age t - staleFrom on [max(x, staleFrom), y), clipped to the window.
			a, b := math.Max(math.Max(x, staleFrom), from), y
			if b > a {
				age += ((b-staleFrom)*(b-staleFrom) - (a-staleFrom)*(a-staleFrom)) / 2
			}
		}
		// Change j (to version j+1, at ch[j]) is captured if a fetch sees
		// version j+1, missed if change j+1 happens first.
		fk := 0
		for j := 0; j < len(ch) && ch[j] <= to; j++ {
			if ch[j] < from {
				continue
			}
			for fk < len(fetches) && int(fetches[fk].Version) < j+1 {
				fk++
			}
			switch {
			case fk < len(fetches) && int(fetches[fk].Version) == j+1 && fetches[fk].T <= to:
				captured++
			case j+1 < len(ch) && ch[j+1] <= to:
				missed++
			}
		}
	}
	span := (to - from) * float64(len(site.Pages))
	m := Measured{Freshness: fresh / span, AgeHours: age / span}
	if news > 0 {
		m.NewsFreshness = newsFresh / ((to - from) * float64(news))
	}
	if missed+captured > 0 {
		m.MissedChanges = float64(missed) / float64(missed+captured)
	}
	s := Series{BinHours: bin, Freshness: make([]float64, nb)}
	for b := range bins {
		w := math.Min(bin, to-float64(b)*bin)
		s.Freshness[b] = bins[b] / (w * float64(len(site.Pages)))
	}
	m.StdErr = batchStdErr(s, from, to)
	return m, s
}

// overlap is the length of [a, b] ∩ [c, d].
func overlap(a, b, c, d float64) float64 {
	return math.Max(0, math.Min(b, d)-math.Max(a, c))
}

// addBins adds the length of [a, b] to the bins it overlaps.
func addBins(bins []float64, w, a, b float64) {
	for k := int(a / w); k < len(bins) && float64(k)*w < b; k++ {
		bins[k] += overlap(a, b, float64(k)*w, float64(k+1)*w)
	}
}

// batchStdErr is the standard error of the window's mean freshness from
// the bins inside it, grouped into 10 batches (batch means: neighbouring
// bins are correlated, batches of several hours much less so).
func batchStdErr(s Series, from, to float64) float64 {
	var in []float64
	for b, f := range s.Freshness {
		if float64(b)*s.BinHours >= from && float64(b+1)*s.BinHours <= to {
			in = append(in, f)
		}
	}
	return batchMeansStdErr(in, 10)
}

func batchMeansStdErr(x []float64, batches int) float64 {
	size := len(x) / batches
	if size == 0 {
		return 0 // too short a window to tell
	}
	means := make([]float64, batches)
	for b := range means {
		means[b] = mean(x[b*size : (b+1)*size])
	}
	mu := mean(means)
	v := 0.0
	for _, m := range means {
		v += (m - mu) * (m - mu)
	}
	return math.Sqrt(v / float64(batches-1) / float64(batches))
}

// DiffStdErr is the batch-means standard error of the mean difference
// b - a of two freshness series over [from, to]: both crawlers crawl the
// same site, so most of its randomness cancels in the difference.
func DiffStdErr(a, b Series, from, to float64) float64 {
	var d []float64
	for k := range a.Freshness {
		if float64(k)*a.BinHours >= from && float64(k+1)*a.BinHours <= to && k < len(b.Freshness) {
			d = append(d, b.Freshness[k]-a.Freshness[k])
		}
	}
	return batchMeansStdErr(d, 10)
}
