package collysched

import (
	"sync"
	"time"
)

// pacer releases callers at least 1/rate apart: each release is 1/rate
// after the previous one actually happened (a late release delays the
// next, nothing catches up in a burst).
type pacer struct {
	mu   sync.Mutex
	gap  time.Duration
	next time.Time
}

func newPacer(rate float64) *pacer {
	return &pacer{gap: time.Duration(float64(time.Second) / rate)}
}

// wait blocks until the caller's release and returns its time.
func (p *pacer) wait() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	time.Sleep(time.Until(p.next))
	now := time.Now()
	p.next = now.Add(p.gap)
	return now
}
