// Package domain holds the media rules: which bytes count as an accepted image, how an image
// is cleaned and thumbnailed, and how stored objects are named. It does no I/O: it declares the
// object store the use cases need (ObjectStore), which adapters implement in MinIO.
package domain

import "errors"

// Reasons an upload is refused. Ports map each one to an HTTP status and a message a person
// can act on; wrap them with context and test with errors.Is.
var (
	// ErrEmpty: no bytes at all.
	ErrEmpty = errors.New("empty image")
	// ErrTooLarge: more bytes than the configured limit.
	ErrTooLarge = errors.New("image too large")
	// ErrUnsupportedType: the bytes are not JPEG, PNG, WebP or GIF, whatever the name or the
	// claimed type say.
	ErrUnsupportedType = errors.New("unsupported image type")
	// ErrTooManyPixels: the header announces more pixels than we are willing to decode
	// (a small file can announce a huge canvas: a decompression bomb).
	ErrTooManyPixels = errors.New("image dimensions too large")
	// ErrTooMuchMemory: decoding the image (at its format's depth, with the pipeline's copies)
	// would need more memory than one image may take.
	ErrTooMuchMemory = errors.New("image needs too much memory to decode")
	// ErrTooComplex: more JPEG scans or GIF frames than any real photo has.
	ErrTooComplex = errors.New("image structure too complex")
	// ErrCorruptImage: the signature matched but the image does not decode.
	ErrCorruptImage = errors.New("image cannot be decoded")
	// ErrInvalidDataURL: the text is not a data: URL we can read.
	ErrInvalidDataURL = errors.New("invalid data URL")
	// ErrInvalidItemID: an item id that is not a UUID.
	ErrInvalidItemID = errors.New("invalid item id")
)
