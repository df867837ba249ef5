// Package app holds the vision use cases: analyse a photo, generate a gift or wishlist item,
// with the answer cache, the daily quotas, and retries and timeouts around the model; and the
// product lookups: a barcode (Barcodes), a shop's link (Links), a product's picture
// (ProductImages).
package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	mrand "math/rand/v2"
	"net"
	"strconv"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/santa-wishlist/santa/pkg/caller"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// Config tunes the use cases.
type Config struct {
	// Model names the model and Backend the API's base URL (empty: Google's); both are
	// part of the cache key, so answers from the local fake are never served once a real
	// Gemini is configured, nor one model's answers for another.
	Model, Backend string
	// Timeout bounds each call to the model.
	Timeout time.Duration
	// MaxAttempts bounds the tries of one call (rate limited or failed upstream).
	MaxAttempts int
	// RetryBaseDelay is the first back-off; it doubles per retry up to RetryMaxDelay. A
	// model asking to wait longer than RetryMaxDelay is not retried.
	RetryBaseDelay, RetryMaxDelay time.Duration
	CacheTTL                      time.Duration
	// QuotaPerUser and QuotaPerIP are model calls per UTC day; 0 turns a quota off.
	QuotaPerUser, QuotaPerIP int
	// DailyBudget is the model calls per UTC day for everyone together (what the Gemini
	// bill allows); 0 turns it off.
	DailyBudget int
	// LookupPerUser and LookupPerIP are barcode and link lookups that reach the internet per
	// UTC day (cache hits are free); 0 turns one off.
	LookupPerUser, LookupPerIP int
}

// Defaults are the settings used unless the environment says otherwise.
func Defaults() Config {
	return Config{
		Model:          "gemini-2.5-flash",
		Timeout:        20 * time.Second,
		MaxAttempts:    3,
		RetryBaseDelay: 500 * time.Millisecond,
		RetryMaxDelay:  5 * time.Second,
		CacheTTL:       24 * time.Hour,
		QuotaPerUser:   50,
		QuotaPerIP:     100,
		DailyBudget:    5000,
		LookupPerUser:  200,
		LookupPerIP:    400,
	}
}

// QuotaExceeded is a caller who has used up a daily quota, or the AI's global budget that
// everyone shares (Scope "global").
type QuotaExceeded struct {
	Scope      string
	Limit      int
	RetryAfter time.Duration
	// Lookup is true for the product lookup quotas, false for AI calls.
	Lookup bool
}

func (e *QuotaExceeded) Error() string {
	switch {
	case e.Scope == "global":
		return "Santa's AI helper has used all of today's requests for everyone. Please try again tomorrow; you can still add the gift by hand."
	case e.Lookup && e.Scope == "user":
		return fmt.Sprintf("You have used all %d product lookups for today. Please try again tomorrow or add the gift by hand.", e.Limit)
	case e.Lookup:
		return fmt.Sprintf("All %d product lookups for today from your network have been used. Please try again tomorrow or add the gift by hand.", e.Limit)
	case e.Scope == "user":
		return fmt.Sprintf("You have used all %d AI requests for today. Please try again tomorrow.", e.Limit)
	default:
		return fmt.Sprintf("All %d AI requests for today from your network have been used. Please try again tomorrow.", e.Limit)
	}
}

// ErrQuotaUnavailable means the quota could not be checked; no call is made unchecked.
var ErrQuotaUnavailable = errors.New("The AI service is temporarily unavailable. Please try again shortly.")

// Outcome says how an answer was obtained.
type Outcome string

const (
	OutcomeModel    Outcome = "miss"     // the model was called
	OutcomeCache    Outcome = "hit"      // answered from the cache, no call
	OutcomeFallback Outcome = "fallback" // no model configured
)

// Service runs the use cases. A nil Model means no API key is configured.
type Service struct {
	model   domain.Model
	cache   domain.Cache
	quota   domain.Quota
	cfg     Config
	metrics *Metrics
	logger  *slog.Logger
	now     func() time.Time
	calls   singleflight.Group
}

// New builds the service; model may be nil (fallback answers only).
func New(model domain.Model, cache domain.Cache, quota domain.Quota, cfg Config, metrics *Metrics, logger *slog.Logger) *Service {
	if cfg.MaxAttempts < 1 {
		cfg.MaxAttempts = 1
	}
	return &Service{model: model, cache: cache, quota: quota, cfg: cfg, metrics: metrics, logger: logger, now: time.Now}
}

// AIConfigured reports whether answers come from the model.
func (s *Service) AIConfigured() bool { return s.model != nil }

// Analyze answers the product analysis of a photo; prompt is the caller's optional extra
// instruction.
func (s *Service) Analyze(ctx context.Context, who caller.Caller, img domain.Image, prompt string) (domain.Analysis, Outcome, error) {
	call := domain.Call{Kind: domain.KindAnalyze, Prompt: domain.Prompt(domain.KindAnalyze, prompt, true), Image: &img}
	a, outcome, err := run(ctx, s, who, call, domain.AnalysisFromReply, domain.FallbackAnalysis)
	if err != nil {
		return a, outcome, err
	}
	a.ID = newID(s.now())
	return a, outcome, nil
}

// GenerateGift answers the editor's gift item from a description and/or the decorated photo.
func (s *Service) GenerateGift(ctx context.Context, who caller.Caller, prompt string, img *domain.Image) (domain.Gift, Outcome, error) {
	call := domain.Call{Kind: domain.KindGift, Prompt: domain.Prompt(domain.KindGift, prompt, img != nil), Image: img}
	return run(ctx, s, who, call, domain.GiftFromReply, domain.FallbackGift)
}

// GenerateItem answers the recognition page's wishlist entry.
func (s *Service) GenerateItem(ctx context.Context, who caller.Caller, prompt string, img *domain.Image) (domain.Item, Outcome, error) {
	call := domain.Call{Kind: domain.KindItem, Prompt: domain.Prompt(domain.KindItem, prompt, img != nil), Image: img}
	return run(ctx, s, who, call, domain.ItemFromReply, domain.FallbackItem)
}

func run[T any](ctx context.Context, s *Service, who caller.Caller, call domain.Call,
	parse func(domain.ModelReply) (T, error), fallback func() T) (T, Outcome, error) {
	var zero T
	if s.model == nil {
		return fallback(), OutcomeFallback, nil
	}
	key := s.cacheKey(call)
	if cached, ok := s.cached(ctx, key); ok {
		var v T
		if err := json.Unmarshal(cached, &v); err == nil {
			s.metrics.CacheHits.Inc()
			return v, OutcomeCache, nil
		}
		s.logger.Warn("unreadable cache entry ignored", "key", key)
	}
	if err := s.take(ctx, who); err != nil {
		return zero, "", err
	}
	// The same photo sent twice at once makes one call. The call runs on its own
	// (uncancelled) context: an answer already paid for is cached even if this caller has
	// gone, and each try still has its timeout.
	done := s.calls.DoChan(key, func() (any, error) {
		callCtx := context.WithoutCancel(ctx)
		reply, err := s.callModel(callCtx, call)
		if err != nil {
			return nil, err
		}
		result, err := parse(reply)
		if err != nil {
			s.countFailure(call.Kind, err)
			s.logger.Warn("model reply not usable", "kind", call.Kind, "err", err, "reply", domain.Truncate(reply.Text, 500))
			return nil, err
		}
		if data, err := json.Marshal(result); err == nil {
			setCtx, cancel := context.WithTimeout(callCtx, storeTimeout)
			defer cancel()
			if err := s.cache.Set(setCtx, key, data, s.cfg.CacheTTL); err != nil {
				s.logger.Warn("answer not cached", "err", err)
			}
		}
		return result, nil
	})
	select {
	case <-ctx.Done():
		return zero, "", ctx.Err()
	case r := <-done:
		if r.Err != nil {
			return zero, "", r.Err
		}
		return r.Val.(T), OutcomeModel, nil
	}
}

// storeTimeout bounds each cache or quota operation, so a Redis outage answers quickly
// instead of holding requests (for a lookup, a cache outage costs an upstream call, not the answer).
const storeTimeout = 2 * time.Second

func (s *Service) cached(ctx context.Context, key string) ([]byte, bool) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	data, ok, err := s.cache.Get(ctx, key)
	if err != nil {
		// A cache outage costs a model call, not the answer.
		s.logger.Warn("cache unavailable", "err", err)
		return nil, false
	}
	return data, ok
}

// callModel makes the call, retrying with exponential back-off when Gemini is rate limited,
// fails on its side or cannot be reached.
func (s *Service) callModel(ctx context.Context, call domain.Call) (domain.ModelReply, error) {
	for attempt := 1; ; attempt++ {
		reply, err := s.attempt(ctx, call)
		if err == nil {
			return reply, nil
		}
		f, _ := domain.AsAIFailure(err)
		s.countFailure(call.Kind, f)
		if !f.Retryable() || attempt >= s.cfg.MaxAttempts {
			s.logger.Warn("model call failed", "kind", call.Kind, "attempt", attempt, "reason", f.Reason,
				"status", f.Status, "detail", domain.Truncate(f.Detail, 500))
			return domain.ModelReply{}, f
		}
		wait := s.backoff(attempt)
		if f.RetryAfter > s.cfg.RetryMaxDelay {
			s.logger.Warn("model asked to wait too long; not retrying", "kind", call.Kind, "retry_after", f.RetryAfter.String())
			return domain.ModelReply{}, f
		}
		wait = max(wait, f.RetryAfter)
		s.logger.Info("retrying model call", "kind", call.Kind, "attempt", attempt, "reason", f.Reason, "status", f.Status, "wait", wait.String())
		select {
		case <-ctx.Done():
			return domain.ModelReply{}, f
		case <-time.After(wait):
		}
	}
}

// attempt is one call with its own timeout; every error comes back as an AIFailure.
func (s *Service) attempt(ctx context.Context, call domain.Call) (domain.ModelReply, error) {
	s.metrics.Calls.WithLabelValues(string(call.Kind)).Inc()
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	reply, err := s.model.Generate(ctx, call)
	if err == nil {
		return reply, nil
	}
	if f, ok := domain.AsAIFailure(err); ok {
		return reply, f
	}
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		f := domain.TimeoutFailure()
		f.Detail = fmt.Sprintf("no answer within %s", s.cfg.Timeout)
		return reply, f
	}
	f := domain.NetworkFailure()
	f.Detail = err.Error()
	return reply, f
}

// backoff is the wait before retry n: base·2^(n-1), capped, with ±20% jitter so replicas
// retrying together spread out.
func (s *Service) backoff(n int) time.Duration {
	d := float64(s.cfg.RetryBaseDelay) * math.Pow(2, float64(n-1))
	d = math.Min(d, float64(s.cfg.RetryMaxDelay))
	d *= 0.8 + 0.4*mrand.Float64()
	return time.Duration(d)
}

func (s *Service) countFailure(kind domain.Kind, err error) {
	reason := "other"
	if f, ok := domain.AsAIFailure(err); ok {
		reason = f.Reason
	}
	s.metrics.Failures.WithLabelValues(string(kind), reason).Inc()
}

// take counts the call against the caller's daily quotas and the global daily budget.
func (s *Service) take(ctx context.Context, who caller.Caller) error {
	return s.takeCounters(ctx, who, "", s.cfg.QuotaPerUser, s.cfg.QuotaPerIP, s.cfg.DailyBudget)
}

// TakeLookup counts one product lookup that reaches the internet against the caller's
// daily lookup quotas (kept apart from the AI's).
func (s *Service) TakeLookup(ctx context.Context, who caller.Caller) error {
	return s.takeCounters(ctx, who, "lookup:", s.cfg.LookupPerUser, s.cfg.LookupPerIP, 0)
}

// GlobalBudgetKey is the counter of today's model calls for everyone.
func GlobalBudgetKey(day time.Time) string { return "global:" + day.UTC().Format("2006-01-02") }

// takeCounters counts who by account (signed in only) and by the address the port put in
// who.IP (everyone, visitors included), under today's keys.
func (s *Service) takeCounters(ctx context.Context, who caller.Caller, prefix string, perUser, perIP, global int) error {
	now := s.now().UTC()
	day := now.Format("2006-01-02")
	midnight := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
	var counters []domain.Counter
	if who.UID != "" && perUser > 0 {
		counters = append(counters, domain.Counter{Scope: "user", Key: prefix + UserSubject(who.UID) + ":" + day, Limit: perUser})
	}
	if perIP > 0 {
		counters = append(counters, domain.Counter{Scope: "ip", Key: prefix + "ip:" + ipSubject(who.IP) + ":" + day, Limit: perIP})
	}
	// The global budget comes last, so a caller over their own quota is told about theirs.
	if global > 0 {
		counters = append(counters, domain.Counter{Scope: "global", Key: GlobalBudgetKey(now), Limit: global})
	}
	// The counters outlive midnight by an hour so a clock a little behind does not reset
	// them early.
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	spent, err := s.quota.Take(ctx, counters, midnight.Add(time.Hour))
	if err != nil {
		s.logger.Error("quota unavailable", "err", err)
		return ErrQuotaUnavailable
	}
	if global > 0 {
		s.reportBudget(ctx, now, global)
	}
	if spent != nil {
		return &QuotaExceeded{Scope: spent.Scope, Limit: spent.Limit, RetryAfter: midnight.Sub(now), Lookup: prefix != ""}
	}
	return nil
}

// BudgetReader tells how much of a counter is used; the Redis quota store is one.
type BudgetReader interface {
	Used(ctx context.Context, key string) (int, error)
}

// reportBudget sets the budget gauges from the shared counter, so every replica reports
// the same, global figure (the alert takes the max over replicas).
func (s *Service) reportBudget(ctx context.Context, now time.Time, limit int) {
	s.metrics.BudgetLimit.Set(float64(limit))
	r, ok := s.quota.(BudgetReader)
	if !ok {
		return
	}
	if used, err := r.Used(ctx, GlobalBudgetKey(now)); err == nil {
		s.metrics.BudgetUsed.Set(float64(min(used, limit)))
	}
}

// ipSubject is what an address is counted as: IPv4 addresses one by one, IPv6 by /64,
// because one household gets a whole /64 and could otherwise change address per request.
func ipSubject(ip string) string {
	parsed := net.ParseIP(ip)
	switch {
	case parsed == nil:
		return "unknown"
	case parsed.To4() != nil:
		return parsed.To4().String()
	default:
		return parsed.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
}

// cacheKey is the SHA-256 of everything that shapes the answer: the kind, the backend and
// model, the prompt (its version and text) and the image bytes.
func (s *Service) cacheKey(call domain.Call) string {
	h := sha256.New()
	for _, part := range []string{"v" + domain.PromptVersion, string(call.Kind), s.cfg.Backend, s.cfg.Model, call.Prompt} {
		h.Write([]byte(strconv.Itoa(len(part))))
		h.Write([]byte{':'})
		h.Write([]byte(part))
	}
	if call.Image != nil {
		h.Write(call.Image.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// UserSubject is the part of a user's quota keys that names them (hashed, never the uid).
// The answer cache is keyed by content alone, so it holds nothing of a user to erase.
func UserSubject(uid string) string { return "user:" + hashed(uid) }

// hashed keeps user ids out of Redis key names.
func hashed(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}

// newID is a timestamp plus a random string, as the product's ids are.
func newID(now time.Time) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return strconv.FormatInt(now.UnixMilli(), 10) + "-" + hex.EncodeToString(b)
}
