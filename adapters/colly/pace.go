package collysched

import (
	"sync"
	"time"
)

// pacer hands out request slots at most rate per second: slot k+1 is
// 1/rate after slot k and never earlier than the call, so a late crawler
// does not catch up in a burst.
type pacer struct {
	mu   sync.Mutex
	gap  time.Duration
	next time.Time
}

func newPacer(rate float64) *pacer {
	return &pacer{gap: time.Duration(float64(time.Second) / rate)}
}

// wait blocks until the caller's slot and returns its time.
func (p *pacer) wait() time.Time {
	p.mu.Lock()
	now := time.Now()
	if p.next.Before(now) {
		p.next = now
	}
	slot := p.next
	p.next = slot.Add(p.gap)
	p.mu.Unlock()
	time.Sleep(time.Until(slot))
	return slot
}
