// Package ports exposes the media service: HTTP handlers for uploads and downloads, and the
// item.deleted consumer.
package ports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/santa-wishlist/santa/pkg/auth"
	"github.com/santa-wishlist/santa/pkg/httpserver"
	internalapi "github.com/santa-wishlist/santa/pkg/internalapi/media"
	"github.com/santa-wishlist/santa/pkg/mediaurl"
	"github.com/santa-wishlist/santa/services/media/internal/app"
	"github.com/santa-wishlist/santa/services/media/internal/domain"
	"github.com/santa-wishlist/santa/services/media/internal/ports/internalserver"
)

// Room around the image for multipart framing, the other form fields and JSON syntax.
const envelopeAllowance = 64 << 10

// HTTP serves uploads and downloads.
type HTTP struct {
	app  *app.Service
	urls *mediaurl.Signer
	now  func() time.Time
}

// HTTP implements two generated servers: ServerInterface (openapi_api.gen.go), the public
// upload of api/openapi.yaml, and internalserver's, api/internal.yaml's /internal/ routes.
var (
	_ ServerInterface                = (*HTTP)(nil)
	_ internalserver.ServerInterface = (*HTTP)(nil)
)

// RegisterRoutes adds the media routes:
//
//	POST /api/media       upload through the gateway (or by vision); the owner is the asserted user
//	GET|HEAD /media/*key  the stored objects, at signed addresses only (no listing)
//
// and api/internal.yaml's, which only the wishlist service may call:
//
//	POST /internal/media  upload by the wishlist service; the owner is the user it asserts
//	POST /internal/media/discard  the wishlist drops an image no item kept (its owner's only)
//	POST /internal/media/attach   the wishlist says an item took an unattached upload (kept)
//
// The upload and the /internal/ routes are registered by the generated RegisterHandlers. The
// upload has no sign-in middleware (auth.CallerFor): it refuses a visitor itself, in its own
// words, before reading the body. The stored objects stay by hand (oapi-codegen.yaml says why).
// urls signs the addresses the public upload answers and checks those a download asks for.
func RegisterRoutes(r gin.IRouter, svc *app.Service, urls *mediaurl.Signer) {
	h := &HTTP{app: svc, urls: urls, now: time.Now}
	RegisterHandlersWithOptions(r, h, GinServerOptions{ErrorHandler: httpserver.ParamError})
	r.GET("/media/*key", h.serve)
	r.HEAD("/media/*key", h.serve)
	internalserver.RegisterHandlers(r, h)
}

// UploadMedia serves POST /api/media: the upload, as the gateway asserts its signed-in user
// (or vision, the importing user).
func (h *HTTP) UploadMedia(c *gin.Context) { h.upload(false)(c) }

// StoreItemImage serves POST /internal/media: the upload, as the wishlist asserts its user.
func (h *HTTP) StoreItemImage(c *gin.Context) { h.upload(true)(c) }

// uploadInput is a request read from either form: image holds a multipart file's bytes,
// dataURL the JSON body's data: URL.
type uploadInput struct {
	image   []byte
	dataURL string
	itemID  string
}

// upload stores an image sent as multipart/form-data (field "image", optional "itemId") or
// as JSON {dataUrl, itemId}. The owner is always the user of the signed identity assertion
// (the gateway's for a signed-in user, the wishlist's for an item's owner), never the body: a
// userId field is ignored. /internal/media answers only the wishlist's assertions.
func (h *HTTP) upload(internal bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		maxBytes := h.app.Rules().MaxBytes
		user, signedIn := auth.UserFrom(c)
		owner := strings.TrimSpace(user.UID)
		if !signedIn || owner == "" || (internal && auth.IssuerFrom(c) != "wishlist") {
			// Refused before reading a possibly large body.
			httpserver.Abort(c, http.StatusUnauthorized, "unauthenticated", "Please sign in to upload images.")
			return
		}
		var (
			req uploadInput
			ok  bool
		)
		mediaType, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
		switch mediaType {
		case "multipart/form-data":
			req, ok = readMultipart(c, maxBytes)
		case "application/json":
			req, ok = readJSON(c, maxBytes)
		default:
			httpserver.Abort(c, http.StatusUnsupportedMediaType, "unsupported_request_type",
				`Send the image as multipart/form-data in a field named "image", or as JSON with a dataUrl.`)
			return
		}
		if !ok {
			return
		}

		data := req.image
		if data == nil {
			var err error
			if data, err = domain.DecodeDataURL(req.dataURL, maxBytes); err != nil {
				writeError(c, err, maxBytes)
				return
			}
		}

		stored, err := h.app.Store(c.Request.Context(), app.Upload{Data: data, ItemID: req.itemID, Owner: owner})
		if err != nil {
			writeError(c, err, maxBytes)
			return
		}
		if !internal {
			// The uploader's browser shows it now; the wishlist (internal) stores the plain
			// address and signs it whenever it answers the item.
			st := h.urls.At(h.now())
			stored.URL, stored.ThumbnailURL = st.Sign(stored.URL), st.Sign(stored.ThumbnailURL)
		}
		c.Header("Location", stored.URL)
		c.JSON(http.StatusCreated, stored)
	}
}

func readJSON(c *gin.Context, maxBytes int64) (uploadInput, bool) {
	limit := domain.DecodedLenLimit(maxBytes) + envelopeAllowance
	if c.Request.ContentLength > limit {
		writeError(c, domain.ErrTooLarge, maxBytes)
		return uploadInput{}, false
	}
	// Read here rather than in DecodeJSON so that an oversized body without a
	// Content-Length gets the same "image too large" answer as one with it.
	raw, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, limit))
	if err != nil {
		return uploadInput{}, bodyFailed(c, err, maxBytes)
	}
	c.Request.Body = io.NopCloser(bytes.NewReader(raw))
	// Its userId, accepted from older callers, is ignored: the owner is asserted. Both uploads
	// read this type: the public spec's (MediaDataUrlUpload) has a UUID itemId, which would
	// refuse a malformed one as malformed JSON rather than invalid_item_id.
	var body internalapi.DataUrlImage
	if !httpserver.DecodeJSON(c, &body, limit) {
		return uploadInput{}, false
	}
	if strings.TrimSpace(body.DataUrl) == "" {
		httpserver.AbortFields(c, http.StatusBadRequest, "missing_image", "dataUrl is required.",
			map[string]string{"dataUrl": "Send the image as a data: URL such as data:image/jpeg;base64,..."})
		return uploadInput{}, false
	}
	return uploadInput{dataURL: body.DataUrl, itemID: body.ItemId}, true
}

// readMultipart streams the form: the image part is read up to maxBytes+1 (to tell "too
// large" apart), other fields up to a few hundred bytes, anything else is skipped.
func readMultipart(c *gin.Context, maxBytes int64) (uploadInput, bool) {
	limit := maxBytes + envelopeAllowance
	if c.Request.ContentLength > limit {
		writeError(c, domain.ErrTooLarge, maxBytes)
		return uploadInput{}, false
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	mr, err := c.Request.MultipartReader()
	if err != nil {
		httpserver.Abort(c, http.StatusBadRequest, "malformed_multipart", "The multipart form could not be read.")
		return uploadInput{}, false
	}
	var (
		req      uploadInput
		hasImage bool
	)
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return req, bodyFailed(c, err, maxBytes)
		}
		switch part.FormName() {
		case "image":
			if hasImage {
				break // one image per request; later ones are ignored
			}
			data, err := io.ReadAll(io.LimitReader(part, maxBytes+1))
			if err != nil {
				return req, bodyFailed(c, err, maxBytes)
			}
			if int64(len(data)) > maxBytes {
				writeError(c, domain.ErrTooLarge, maxBytes)
				return req, false
			}
			req.image, hasImage = data, true
		case "itemId":
			v, err := io.ReadAll(io.LimitReader(part, 256))
			if err != nil {
				return req, bodyFailed(c, err, maxBytes)
			}
			req.itemID = string(v)
		}
		_ = part.Close()
	}
	if !hasImage {
		httpserver.AbortFields(c, http.StatusBadRequest, "missing_image", `The form has no "image" file.`,
			map[string]string{"image": "Choose an image file to upload."})
		return req, false
	}
	return req, true
}

// DiscardImage removes an image the wishlist stored for an item it then did not save. Only the
// wishlist may ask, and only for the user it asserts: someone else's image stays.
func (h *HTTP) DiscardImage(c *gin.Context) {
	user, ok := wishlistCaller(c, "discard")
	if !ok {
		return
	}
	var body internalapi.DiscardImage
	if !httpserver.DecodeJSON(c, &body, 4<<10) {
		return
	}
	n, err := h.app.Discard(c.Request.Context(), user.UID, body.ImageUrl)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		httpserver.Abort(c, http.StatusNotFound, "not_found", "There is no image at this address.")
	case err != nil:
		httpserver.Logger(c).Error("discarding an image failed", "err", err)
		httpserver.Abort(c, http.StatusServiceUnavailable, "storage_unavailable", "The image cannot be removed right now.")
	default:
		c.JSON(http.StatusOK, internalapi.ImagesRemoved{Removed: n})
	}
}

// wishlistCaller is the user the wishlist service asserts; any other caller is answered 401.
func wishlistCaller(c *gin.Context, verb string) (auth.User, bool) {
	user, ok := auth.UserFrom(c)
	if !ok || auth.IssuerFrom(c) != "wishlist" {
		httpserver.Abort(c, http.StatusUnauthorized, "unauthenticated", "Only the wishlist service may "+verb+" images.")
		return auth.User{}, false
	}
	return user, true
}

// AttachImage records that an item took one of the asserted user's unattached uploads, so
// that the sweeper keeps it. Only the wishlist may ask.
func (h *HTTP) AttachImage(c *gin.Context) {
	user, ok := wishlistCaller(c, "attach")
	if !ok {
		return
	}
	var body internalapi.AttachImage
	if !httpserver.DecodeJSON(c, &body, 4<<10) {
		return
	}
	n, err := h.app.Attach(c.Request.Context(), user.UID, body.ImageUrl, body.ItemId)
	switch {
	case errors.Is(err, domain.ErrInvalidItemID):
		httpserver.AbortFields(c, http.StatusBadRequest, "invalid_item_id", "itemId must be a UUID.",
			map[string]string{"itemId": "Must be the UUID of an item."})
	case errors.Is(err, domain.ErrNotFound):
		httpserver.Abort(c, http.StatusNotFound, "not_found", "No such upload of yours.")
	case err != nil:
		httpserver.Logger(c).Error("attaching an image failed", "err", err)
		httpserver.Abort(c, http.StatusServiceUnavailable, "storage_unavailable", "The image cannot be updated right now.")
	default:
		c.JSON(http.StatusOK, internalapi.ImagesMarked{Marked: n})
	}
}

// bodyFailed answers a body that could not be read: too large, or cut off.
func bodyFailed(c *gin.Context, err error, maxBytes int64) bool {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		writeError(c, domain.ErrTooLarge, maxBytes)
		return false
	}
	httpserver.Abort(c, http.StatusBadRequest, "unreadable_body", "The request body could not be read.")
	return false
}

// writeError answers a refused or failed upload with a message a person can act on.
func writeError(c *gin.Context, err error, maxBytes int64) {
	log := httpserver.Logger(c)
	switch {
	case errors.Is(err, domain.ErrTooLarge):
		httpserver.Abort(c, http.StatusRequestEntityTooLarge, "image_too_large",
			fmt.Sprintf("The image is too large: the limit is %s.", humanBytes(maxBytes)))
	case errors.Is(err, domain.ErrUnsupportedType):
		httpserver.Abort(c, http.StatusUnsupportedMediaType, "unsupported_image_type",
			"Only JPEG, PNG, WebP or GIF images are accepted.")
	case errors.Is(err, domain.ErrEmpty):
		httpserver.Abort(c, http.StatusBadRequest, "empty_image", "The image is empty.")
	case errors.Is(err, domain.ErrTooManyPixels):
		httpserver.Abort(c, http.StatusUnprocessableEntity, "image_dimensions_too_large",
			fmt.Sprintf("The image has too many pixels (the limit is %d megapixels).", domain.DefaultMaxPixels/1_000_000))
	case errors.Is(err, domain.ErrTooMuchMemory):
		httpserver.Abort(c, http.StatusUnprocessableEntity, "image_too_large_to_open",
			"The image is too large to open: its dimensions and colour depth need too much memory. Please send a smaller or 8-bit image.")
	case errors.Is(err, domain.ErrTooComplex):
		httpserver.Abort(c, http.StatusUnprocessableEntity, "image_too_complex",
			"The image has more scans or frames than a photo has. Please save it again as an ordinary JPEG or PNG.")
	case errors.Is(err, app.ErrQuotaExceeded):
		msg := "You have stored as many photos as your account allows. Delete items with photos you no longer need, then try again."
		var q *app.QuotaError
		if errors.As(err, &q) {
			msg = fmt.Sprintf("You have stored as many photos as your account allows (%d photos, %s). Delete items with photos you no longer need, then try again.",
				q.Quota.MaxImages, humanBytes(q.Quota.MaxBytes))
		}
		httpserver.Abort(c, http.StatusConflict, "storage_quota_exceeded", msg)
	case errors.Is(err, app.ErrUploadRate):
		var rateErr *app.RateError
		if errors.As(err, &rateErr) {
			c.Header("Retry-After", strconv.Itoa(int(rateErr.RetryAfter.Seconds()+0.999)))
		}
		httpserver.Abort(c, http.StatusTooManyRequests, "too_many_uploads",
			"You are uploading images too quickly. Please wait a moment and try again.")
	case errors.Is(err, domain.ErrCorruptImage):
		httpserver.Abort(c, http.StatusUnprocessableEntity, "corrupt_image",
			"The image could not be read; it may be damaged or incomplete.")
	case errors.Is(err, domain.ErrInvalidDataURL):
		httpserver.AbortFields(c, http.StatusBadRequest, "invalid_data_url",
			"dataUrl must be a base64 data: URL such as data:image/jpeg;base64,...",
			map[string]string{"dataUrl": "Must be a base64 data: URL of an image."})
	case errors.Is(err, domain.ErrInvalidItemID):
		httpserver.AbortFields(c, http.StatusBadRequest, "invalid_item_id", "itemId must be a UUID.",
			map[string]string{"itemId": "Must be the UUID of an item, or left out."})
	case errors.Is(err, app.ErrNoOwner):
		httpserver.AbortFields(c, http.StatusBadRequest, "invalid_user", "The user id is not valid.",
			map[string]string{"userId": "Must be 1 to 128 printable characters."})
	default:
		log.Error("storing an image failed", "err", err)
		httpserver.Abort(c, http.StatusServiceUnavailable, "storage_unavailable",
			"The image could not be stored right now. Please try again.")
		return
	}
	log.Info("upload refused", "reason", err.Error())
}

func humanBytes(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// serve streams a stored object. Keys are unguessable and nothing lists them: anything that
// is not exactly a key this service writes is a 404, including /media/ and folders. So is an
// address without a valid, unexpired signature: a photo is seen by whom the list's
// owner lets see it, for as long as the address they were given lives, not by anyone who once
// had the URL. 404, not 403, so a refused address says nothing about whether the photo exists.
func (h *HTTP) serve(c *gin.Context) {
	key := strings.TrimPrefix(c.Param("key"), "/")
	ctx := c.Request.Context()
	ttl, signed := h.urls.Verify(key, c.Query("exp"), c.Query("sig"), h.now())
	if !signed {
		httpserver.Abort(c, http.StatusNotFound, "not_found", "There is no image at this address.")
		return
	}
	notFound := func(err error) {
		if !errors.Is(err, domain.ErrNotFound) {
			httpserver.Logger(c).Error("reading an object failed", "key", key, "err", err)
			httpserver.Abort(c, http.StatusServiceUnavailable, "storage_unavailable",
				"The image cannot be read right now. Please try again.")
			return
		}
		httpserver.Abort(c, http.StatusNotFound, "not_found", "There is no image at this address.")
	}

	inm := c.GetHeader("If-None-Match")
	if inm != "" || c.Request.Method == http.MethodHead {
		info, err := h.app.Stat(ctx, key)
		if err != nil {
			notFound(err)
			return
		}
		setObjectHeaders(c, info, ttl)
		if inm != "" && etagMatches(inm, info.ETag) {
			c.Status(http.StatusNotModified)
			return
		}
		if c.Request.Method == http.MethodHead {
			c.Header("Content-Length", strconv.FormatInt(info.Size, 10))
			c.Header("Content-Type", servedType(info.ContentType))
			c.Status(http.StatusOK)
			return
		}
	}

	body, info, err := h.app.Open(ctx, key)
	if err != nil {
		notFound(err)
		return
	}
	defer body.Close()
	setObjectHeaders(c, info, ttl)
	c.DataFromReader(http.StatusOK, info.Size, servedType(info.ContentType), body, nil)
}

// setObjectHeaders: ttl is how long the signed address stays valid. The browser may keep the
// photo that long (the same address comes back all hour, so it hits), no longer; and only the
// browser: shared caches (proxies, CDNs) must not keep children's photos at all.
func setObjectHeaders(c *gin.Context, info domain.ObjectInfo, ttl time.Duration) {
	c.Header("ETag", `"`+info.ETag+`"`)
	c.Header("Cache-Control", "private, max-age="+strconv.Itoa(int(ttl/time.Second)))
	c.Header("X-Content-Type-Options", "nosniff")
	// Opened on its own, an image needs no script, style or frame.
	c.Header("Content-Security-Policy", "default-src 'none'; img-src 'self'; sandbox")
	if !info.LastModified.IsZero() {
		c.Header("Last-Modified", info.LastModified.UTC().Format(http.TimeFormat))
	}
}

// servedType only ever answers the two types this service writes.
func servedType(stored string) string {
	switch stored {
	case "image/jpeg", "image/png":
		return stored
	}
	return "application/octet-stream"
}

// etagMatches applies If-None-Match's weak comparison: "*" or any listed tag, W/ or not.
func etagMatches(header, etag string) bool {
	for _, candidate := range strings.Split(header, ",") {
		candidate = strings.TrimSpace(candidate)
		if candidate == "*" {
			return true
		}
		candidate = strings.TrimPrefix(candidate, "W/")
		if strings.Trim(candidate, `"`) == etag && etag != "" {
			return true
		}
	}
	return false
}
