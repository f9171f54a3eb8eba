package collysched

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	crawlsched "github.com/crawlsched/crawlsched/bindings/go"
)

// PageState is what the driver knows about one page.
type PageState struct {
	URL        string
	ChangeRate float64 // current estimate, per second (before the crawl: Load's guess or 0)
	Visits     int
	Changes    int
}

// Pages is every page's state, in the order they were added.
func (d *Driver) Pages() ([]PageState, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]PageState, len(d.pages))
	for id, p := range d.pages {
		out[id] = PageState{URL: p.req.URL, ChangeRate: p.guess, Visits: p.visits, Changes: p.changes}
		if p.added {
			r, err := d.sched.ChangeRate(uint64(id))
			if err != nil {
				return nil, err
			}
			out[id].ChangeRate = r
		}
	}
	return out, nil
}

// savedPage is one page in Save's JSON.
type savedPage struct {
	URL          string      `json:"url"`
	Method       string      `json:"method"`
	Headers      http.Header `json:"headers,omitempty"`
	ChangeRate   float64     `json:"change_rate,omitempty"`
	Estimator    string      `json:"estimator,omitempty"` // Scheduler.PageStateText (format 2)
	Visits       int         `json:"visits"`
	Changes      int         `json:"changes"`
	LastVisit    *time.Time  `json:"last_visit,omitempty"`
	Digest       string      `json:"digest,omitempty"`
	ETag         string      `json:"etag,omitempty"`
	LastModified string      `json:"last_modified,omitempty"`
}

type savedState struct {
	Format int         `json:"format"`
	Pages  []savedPage `json:"pages"`
}

// stateFormat is Save's format: 2 adds each page's estimator state to 1.
const stateFormat = 2

// Save writes every page's URL, change-rate estimate, estimator state
// (the library's bounded export, at most 1514 characters), last visit and
// validators as JSON, for Load in a later run.
func (d *Driver) Save(w io.Writer) error {
	rates, err := d.Pages()
	if err != nil {
		return err
	}
	d.mu.Lock()
	st := savedState{Format: stateFormat, Pages: make([]savedPage, len(d.pages))}
	for id, p := range d.pages {
		sp := savedPage{URL: p.req.URL, Method: p.req.Method, Headers: p.req.Headers,
			ChangeRate: rates[id].ChangeRate, Estimator: p.state, Visits: p.visits, Changes: p.changes,
			Digest: hex.EncodeToString(p.digest), ETag: p.etag, LastModified: p.lastMod}
		if p.added {
			if sp.Estimator, err = d.sched.PageStateText(uint64(id)); err != nil {
				d.mu.Unlock()
				return err
			}
		}
		if !p.visited.IsZero() {
			t := p.visited
			sp.LastVisit = &t
		}
		st.Pages[id] = sp
	}
	d.mu.Unlock()
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(st)
}

// Load restores the pages of Save into a driver that has not started
// crawling: each page's saved estimator state is imported when the page
// enters the scheduler, so it continues exactly where the saved run left
// it (format 1 files, without states: the saved estimate becomes the
// page's change-rate guess, the prior of a fresh estimator), and the first
// revisit is measured from the saved last visit.
func (d *Driver) Load(r io.Reader) error {
	var st savedState
	if err := json.NewDecoder(r).Decode(&st); err != nil {
		return fmt.Errorf("collysched: reading state: %w", err)
	}
	if st.Format != 1 && st.Format != stateFormat {
		return fmt.Errorf("collysched: state format %d, want 1 or %d", st.Format, stateFormat)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.start.IsZero() {
		return fmt.Errorf("collysched: Load after the crawl started")
	}
	for _, sp := range st.Pages {
		digest, err := hex.DecodeString(sp.Digest)
		if err != nil {
			return fmt.Errorf("collysched: page %s: digest: %w", sp.URL, err)
		}
		if err := checkState(sp.Estimator); err != nil {
			return fmt.Errorf("collysched: page %s: estimator: %w", sp.URL, err)
		}
		p, err := d.add(wireRequest{URL: sp.URL, Method: sp.Method, Headers: sp.Headers})
		if err != nil {
			return err
		}
		if len(digest) > 0 {
			p.digest = digest
		}
		p.visits, p.changes, p.etag, p.lastMod = sp.Visits, sp.Changes, sp.ETag, sp.LastModified
		if sp.LastVisit != nil {
			p.visited = *sp.LastVisit
		}
		p.guess, p.state = sp.ChangeRate, sp.Estimator
	}
	return nil
}

// checkState rejects text that is not an estimator state (empty: none).
func checkState(text string) error {
	if text == "" {
		return nil
	}
	e, err := crawlsched.NewEstimatorFromStateText(text)
	if err != nil {
		return err
	}
	return e.Close()
}
