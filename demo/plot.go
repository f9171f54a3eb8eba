package main

import (
	"bytes"
	"fmt"
	"math"
)

// modeColour is a mode's line colour (colour-blind safe: Okabe-Ito).
func modeColour(name string) string {
	switch name {
	case nameUniform:
		return "#999999"
	case nameProportional:
		return "#E69F00"
	case nameStreaming:
		return "#009E73"
	}
	return "#0072B2"
}

// legendName: the short names when four modes share the legend.
func legendName(r *Result, name string) string {
	if len(r.Modes) > 3 {
		return shortName(name)
	}
	return name
}

// smoothWidth is the plot's moving-average window, as a share of the run.
const smoothWidth = 0.05

// plotData is what both plots draw: smoothed series (freshness per bin,
// moving average over 5% of the run), and the y range: the window's
// values and the theory lines, with a margin, in steps of 5 points.
type plotData struct {
	series [][]float64
	lo, hi float64
}

func preparePlot(r *Result) plotData {
	var d plotData
	d.lo, d.hi = 1, 0
	for _, m := range r.Modes {
		s := smooth(m.Series.Freshness, int(math.Max(1, math.Round(smoothWidth*float64(len(m.Series.Freshness))))))
		d.series = append(d.series, s)
		for k, f := range s {
			if float64(k)*m.Series.BinHours >= r.WindowFrom {
				d.lo, d.hi = math.Min(d.lo, f), math.Max(d.hi, f)
			}
		}
		d.lo, d.hi = math.Min(d.lo, m.Theory.Freshness), math.Max(d.hi, m.Theory.Freshness)
	}
	d.lo = math.Max(0, math.Floor((d.lo-0.02)*20)/20)
	d.hi = math.Min(1, math.Ceil((d.hi+0.02)*20)/20)
	if d.hi <= d.lo {
		d.lo, d.hi = 0, 1
	}
	return d
}

// smooth is a centred moving average over w points.
func smooth(x []float64, w int) []float64 {
	out := make([]float64, len(x))
	for i := range x {
		a, b := max(0, i-w/2), min(len(x), i+w/2+1)
		out[i] = mean(x[a:b])
	}
	return out
}

// PlotSVG draws freshness over simulated time per mode (smoothed), with
// each mode's theoretical value as a dashed line over the measured window
// (shaded).
func PlotSVG(r *Result) []byte {
	const (
		w, h                 = 760.0, 440.0
		left, right, top, bt = 60.0, 20.0, 40.0, 100.0
	)
	d := preparePlot(r)
	pw, ph := w-left-right, h-top-bt
	x := func(t float64) float64 { return left + pw*t/math.Max(r.SimHours, 1e-9) }
	y := func(f float64) float64 { return top + ph*(d.hi-f)/(d.hi-d.lo) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<clipPath id="plot"><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f"/></clipPath>`+"\n", left, top, pw, ph)
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="15">%s</text>`+"\n", left, plotTitle(r))
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f2f2f2"/>`+"\n", x(r.WindowFrom), top, x(r.SimHours)-x(r.WindowFrom), ph)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#777">measured window</text>`+"\n", x(r.WindowFrom)+4, top+14)
	for k := int(math.Round(d.lo * 20)); k <= int(math.Round(d.hi*20)); k++ {
		f := float64(k) / 20
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, left+pw, y(f), y(f))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n", left-6, y(f)+4, 100*f)
	}
	step := niceStep(r.SimHours / 8)
	for t := 0.0; t <= r.SimHours+1e-9; t += step {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#999"/>`+"\n", x(t), x(t), top+ph, top+ph+4)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%g</text>`+"\n", x(t), top+ph+18, t)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">simulated hours (1 real second = %g h); lines: moving average over %.0f h</text>`+"\n",
		left+pw/2, top+ph+36, r.Scale, smoothWidth*r.SimHours)
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#333"/>`+"\n", left, top, pw, ph)
	lx := left
	for i, m := range r.Modes {
		c := modeColour(m.Name)
		var pts bytes.Buffer
		for k, f := range d.series[i] {
			t := math.Min((float64(k)+0.5)*m.Series.BinHours, r.SimHours)
			fmt.Fprintf(&pts, "%.1f,%.1f ", x(t), y(f))
		}
		fmt.Fprintf(&b, `<polyline clip-path="url(#plot)" fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", c, pts.String())
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="6 4"/>`+"\n",
			x(r.WindowFrom), x(r.SimHours), y(m.Theory.Freshness), y(m.Theory.Freshness), c)
		label := fmt.Sprintf("%s: %.1f%%", legendName(r, m.Name), 100*m.Measured.Freshness)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="3"/>`+"\n", lx, lx+24, h-22, h-22, c)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", lx+30, h-18, label)
		lx += 30 + 6.5*float64(len(label)) + 24
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#555">dashed: theory for the true change rates (the measured value of each crawler is over the shaded window)</text>`+"\n", left, h-44)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// niceStep rounds a tick step up to 1, 2 or 5 times a power of ten.
func niceStep(s float64) float64 {
	if !(s > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(s)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= s {
			return m * p
		}
	}
	return 10 * p
}

// plotTitle names the site and the budget (and the hosts with limits).
func plotTitle(r *Result) string {
	if !r.Polite {
		return fmt.Sprintf("Fresh pages over time: %d pages, %.0f requests/hour per crawler", r.Pages, r.Budget)
	}
	tight := 0
	for _, h := range r.Hosts {
		if h.Tight {
			tight++
		}
	}
	return fmt.Sprintf("Fresh pages: %d pages on %d hosts (%d tight), %.0f requests/hour per crawler",
		r.Pages, len(r.Hosts), tight, r.Budget)
}
