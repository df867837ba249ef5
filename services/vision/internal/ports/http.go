// Package ports serves the vision use cases over HTTP. Requests come from the gateway, which
// has verified the caller and passes them in X-User-Id (empty for visitors), with the
// client's address in X-Real-IP / X-Forwarded-For.
package ports

import (
	"errors"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	"github.com/santa-wishlist/santa/services/vision/internal/app"
	"github.com/santa-wishlist/santa/services/vision/internal/domain"
)

// Room for multipart framing, the prompt and JSON syntax around the image.
const envelopeAllowance = 64 << 10

// A data URL carries the image in base64, 4/3 of its size.
var maxJSONBody = int64(domain.MaxImageBytes)*4/3 + envelopeAllowance

// CacheHeader tells the caller whether an answer came from the cache (hit), a model call
// (miss) or the fallback for a service without an AI key (fallback).
const CacheHeader = "X-Vision-Cache"

// HTTP serves the vision endpoints.
type HTTP struct {
	app *app.Service
}

// AnalyzeImage answers POST /api/vision/analyze: product analysis of a photo (multipart field
// "image", or JSON {image, prompt}). The multipart form is streamed here, never spooled.
func (h *HTTP) AnalyzeImage(c *gin.Context) {
	var (
		data   []byte
		prompt string
	)
	mediaType, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	switch mediaType {
	case "multipart/form-data":
		var ok bool
		if data, prompt, ok = readMultipart(c); !ok {
			return
		}
	case "application/json":
		var req AnalyzeImageJSONRequestBody
		if !httpserver.DecodeJSON(c, &req, maxJSONBody) {
			return
		}
		var err error
		if data, err = domain.DecodeDataURL(req.Image); err != nil {
			imageError(c, err)
			return
		}
		if req.Prompt != nil {
			prompt = *req.Prompt
		}
	default:
		httpserver.Abort(c, http.StatusUnsupportedMediaType, "unsupported_media_type",
			`Send the image as multipart/form-data (field "image") or as JSON {"image": "data:image/jpeg;base64,..."}.`)
		return
	}
	img, err := domain.NewImage(data)
	if err != nil {
		imageError(c, err)
		return
	}
	if !checkPrompt(c, prompt) {
		return
	}
	result, outcome, err := h.app.Analyze(c.Request.Context(), caller(c), img, prompt)
	if err != nil {
		h.fail(c, err)
		return
	}
	c.Header(CacheHeader, string(outcome))
	c.JSON(http.StatusOK, result)
}

// generateJSON is generateItem's body. Not the generated GenerateItemJSONRequestBody: the
// spec's mode has no type, so that one takes any JSON there, where a number must stay a
// wrong_type answer.
type generateJSON struct {
	Prompt string `json:"prompt"`
	Mode   string `json:"mode"`
	// Image is the editor's decorated photo as a data URL (optional).
	Image string `json:"image"`
}

// GenerateItem answers POST /api/vision/generate: JSON {prompt, mode: "gift"|"item", image?},
// the gift or wishlist item.
func (h *HTTP) GenerateItem(c *gin.Context) {
	var req generateJSON
	if !httpserver.DecodeJSON(c, &req, maxJSONBody) {
		return
	}
	kind, ok := domain.ParseKind(req.Mode)
	if !ok {
		httpserver.AbortFields(c, http.StatusBadRequest, "invalid_mode", `The mode must be "gift" or "item".`,
			map[string]string{"mode": `Use "gift" or "item".`})
		return
	}
	var img *domain.Image
	if strings.TrimSpace(req.Image) != "" {
		data, err := domain.DecodeDataURL(req.Image)
		if err == nil {
			var decoded domain.Image
			decoded, err = domain.NewImage(data)
			img = &decoded
		}
		if err != nil {
			imageError(c, err)
			return
		}
	}
	if !checkPrompt(c, req.Prompt) {
		return
	}
	if strings.TrimSpace(req.Prompt) == "" && img == nil {
		msg := "Please describe the gift or add a photo."
		if kind == domain.KindItem {
			msg = "Please analyze an image first"
		}
		httpserver.AbortFields(c, http.StatusBadRequest, "prompt_required", msg, map[string]string{"prompt": msg})
		return
	}
	ctx, who := c.Request.Context(), caller(c)
	var (
		result  any
		outcome app.Outcome
		err     error
	)
	if kind == domain.KindItem {
		result, outcome, err = h.app.GenerateItem(ctx, who, req.Prompt, img)
	} else {
		result, outcome, err = h.app.GenerateGift(ctx, who, req.Prompt, img)
	}
	if err != nil {
		h.fail(c, err)
		return
	}
	c.Header(CacheHeader, string(outcome))
	c.JSON(http.StatusOK, result)
}

// readMultipart streams the form, keeping the "image" file and the "prompt" field, and
// never spools anything to disk.
func readMultipart(c *gin.Context) ([]byte, string, bool) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, domain.MaxImageBytes+envelopeAllowance)
	mr, err := c.Request.MultipartReader()
	if err != nil {
		httpserver.Abort(c, http.StatusBadRequest, "malformed_form", "The upload could not be read. Please try again.")
		return nil, "", false
	}
	var (
		data   []byte
		prompt string
	)
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			formError(c, err)
			return nil, "", false
		}
		switch part.FormName() {
		case "image":
			data, err = io.ReadAll(io.LimitReader(part, domain.MaxImageBytes+1))
		case "prompt":
			var b []byte
			b, err = io.ReadAll(io.LimitReader(part, 4*domain.MaxPromptLength+1))
			prompt = string(b)
		default:
			_, err = io.Copy(io.Discard, part)
		}
		_ = part.Close()
		if err != nil {
			formError(c, err)
			return nil, "", false
		}
	}
	return data, prompt, true
}

func formError(c *gin.Context, err error) {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		imageError(c, domain.ErrImageTooLarge)
		return
	}
	if errors.Is(err, multipart.ErrMessageTooLarge) {
		imageError(c, domain.ErrImageTooLarge)
		return
	}
	httpserver.Abort(c, http.StatusBadRequest, "malformed_form", "The upload could not be read. Please try again.")
}

func checkPrompt(c *gin.Context, prompt string) bool {
	switch {
	case !utf8.ValidString(prompt):
		httpserver.AbortFields(c, http.StatusBadRequest, "invalid_prompt", "The prompt is not valid text.",
			map[string]string{"prompt": "The prompt is not valid text."})
		return false
	case utf8.RuneCountInString(prompt) > domain.MaxPromptLength:
		msg := "The prompt must be at most " + strconv.Itoa(domain.MaxPromptLength) + " characters."
		httpserver.AbortFields(c, http.StatusBadRequest, "prompt_too_long", msg, map[string]string{"prompt": msg})
		return false
	}
	return true
}

func imageError(c *gin.Context, err error) {
	status, code := http.StatusBadRequest, "invalid_image"
	switch {
	case errors.Is(err, domain.ErrNoImage):
		code = "image_required"
	case errors.Is(err, domain.ErrNotImage):
		status, code = http.StatusUnsupportedMediaType, "not_an_image"
	case errors.Is(err, domain.ErrUnsupportedImage):
		status, code = http.StatusUnsupportedMediaType, "unsupported_image"
	case errors.Is(err, domain.ErrImageTooLarge):
		status, code = http.StatusRequestEntityTooLarge, "image_too_large"
	case errors.Is(err, domain.ErrBadDataURL):
		code = "invalid_image"
	default:
		err = domain.ErrBadDataURL
	}
	httpserver.AbortFields(c, status, code, err.Error(), map[string]string{"image": err.Error()})
}

// fail answers a use case error: the caller's quota (429), Gemini's failures (502, or 504
// for a timeout), and our own trouble (503).
func (h *HTTP) fail(c *gin.Context, err error) {
	var quota *app.QuotaExceeded
	switch {
	case errors.As(err, &quota):
		c.Header("Retry-After", strconv.Itoa(int(math.Ceil(max(quota.RetryAfter.Seconds(), 1)))))
		code := "quota_exceeded"
		if quota.Scope == "global" {
			code = "ai_budget_spent" // everyone's, not the caller's: the web app says so
		}
		httpserver.Abort(c, http.StatusTooManyRequests, code, quota.Error())
	case errors.Is(err, app.ErrQuotaUnavailable):
		httpserver.Abort(c, http.StatusServiceUnavailable, "unavailable", err.Error())
	case c.Request.Context().Err() != nil:
		c.Abort() // the caller has gone; nobody reads an answer
	default:
		if f, ok := domain.AsAIFailure(err); ok {
			status := http.StatusBadGateway
			if f.Reason == domain.ReasonTimeout {
				status = http.StatusGatewayTimeout
			}
			httpserver.Abort(c, status, "gemini_"+f.Reason, f.Message)
			return
		}
		httpserver.Logger(c).Error("vision request failed", "err", err)
		httpserver.Abort(c, http.StatusInternalServerError, "internal", "Something went wrong on our side. Please try again.")
	}
}

// caller is who asks: the verified user (empty for visitors) with the address the quotas
// count. The address is the one the gateway saw: X-Real-IP if it set one, otherwise the
// last X-Forwarded-For entry (the one the gateway itself added), otherwise the connection's
// peer.
func caller(c *gin.Context) auth.User {
	who, _ := auth.UserFrom(c)
	if ip := strings.TrimSpace(c.GetHeader("X-Real-IP")); net.ParseIP(ip) != nil {
		who.IP = ip
		return who
	}
	if xff := c.Request.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		entries := strings.Split(xff[len(xff)-1], ",")
		if ip := strings.TrimSpace(entries[len(entries)-1]); net.ParseIP(ip) != nil {
			who.IP = ip
			return who
		}
	}
	if host, _, err := net.SplitHostPort(c.Request.RemoteAddr); err == nil {
		who.IP = host
	}
	return who
}
