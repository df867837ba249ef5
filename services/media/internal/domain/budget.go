package domain

import (
	"encoding/binary"
	"fmt"
	"image/color"
)

// Decoding is bounded by memory, not by pixels: a 7000×7000 PNG is under the pixel limit but
// a 16-bit one decodes at 8 bytes a pixel (392 MB). Before any pixel is decoded, the header
// (plus a walk over the file's blocks, which allocates nothing) says how much memory the
// whole pipeline will hold, and images over the limit are refused.
const (
	// DefaultMaxDecodeBytes is the memory one image may need when no limit is configured.
	DefaultMaxDecodeBytes = 256 << 20
	// MaxJPEGScans bounds a progressive JPEG's scans. Encoders write about ten; every scan
	// walks every block again, so thousands of tiny scans are a CPU bomb.
	MaxJPEGScans = 100
	// MaxGIFFrames bounds the frames of a GIF. Only the first frame is decoded (animations are
	// not kept), so frames cost no pixel memory here; the cap refuses files that are nothing
	// but frames before the decoder reads them.
	MaxGIFFrames = 1000
)

// Plan is an image whose header was read and accepted: what decoding it will cost.
type Plan struct {
	Kind        ImageType
	Width       int
	Height      int
	Frames      int // GIF frames (1 for other formats); only the first is decoded
	Scans       int // JPEG scans (1 for baseline)
	Progressive bool
	// Cost is the peak memory, in bytes, the pipeline needs for this image: the decoded
	// pixels at the format's own depth, the decoder's working memory, the upright copy and the
	// stored-size copies the encoders work on.
	Cost        int64
	orientation int
}

// Inspect reads the header of data and refuses, before decoding any pixel, an image that is
// empty, too large in bytes, of an unknown type, damaged in its header, over the pixel limit,
// over the JPEG scan or GIF frame limits, or that would need more than rules.MaxDecodeBytes.
func Inspect(data []byte, rules Rules) (Plan, error) {
	if len(data) == 0 {
		return Plan{}, ErrEmpty
	}
	if rules.MaxBytes > 0 && int64(len(data)) > rules.MaxBytes {
		return Plan{}, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(data), rules.MaxBytes)
	}
	kind, err := Sniff(data)
	if err != nil {
		return Plan{}, err
	}
	maxPixels := rules.MaxPixels
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	maxDecode := rules.MaxDecodeBytes
	if maxDecode <= 0 {
		maxDecode = DefaultMaxDecodeBytes
	}

	cfg, err := decodeConfig(kind, data)
	if err != nil {
		return Plan{}, fmt.Errorf("%w: %s header: %v", ErrCorruptImage, kind, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Plan{}, fmt.Errorf("%w: %s of %dx%d pixels", ErrCorruptImage, kind, cfg.Width, cfg.Height)
	}
	if int64(cfg.Width)*int64(cfg.Height) > int64(maxPixels) {
		return Plan{}, fmt.Errorf("%w: %dx%d is over %d pixels", ErrTooManyPixels, cfg.Width, cfg.Height, maxPixels)
	}
	p := Plan{Kind: kind, Width: cfg.Width, Height: cfg.Height, Frames: 1, Scans: 1}

	pixels := float64(cfg.Width) * float64(cfg.Height)
	decoded, working := bytesPerPixel(cfg.ColorModel), 0.0
	switch kind {
	case JPEG:
		l := readJPEGLayout(data)
		p.Scans, p.Progressive = max(l.scans, 1), l.progressive
		if l.scans > MaxJPEGScans {
			return Plan{}, fmt.Errorf("%w: %d scans, limit %d", ErrTooComplex, l.scans, MaxJPEGScans)
		}
		if l.samples > 0 {
			decoded = l.samples // bytes per pixel over all components, subsampling counted
		}
		if l.progressive {
			// image/jpeg keeps every coefficient of a progressive image as an int32 until
			// the last scan: 64 of them per 8×8 block of every component.
			working = 4 * decoded
		}
		p.orientation = jpegOrientation(data)
	case PNG:
		if len(data) > 28 && data[28] == 1 {
			// Adam7: image/png decodes each of the seven passes into its own image, then
			// merges them into a new one.
			working = decoded
		}
	case GIF:
		frames, err := countGIFFrames(data)
		if err != nil {
			return Plan{}, fmt.Errorf("%w: gif: %v", ErrCorruptImage, err)
		}
		p.Frames = frames
		if frames > MaxGIFFrames {
			return Plan{}, fmt.Errorf("%w: %d frames, limit %d", ErrTooComplex, frames, MaxGIFFrames)
		}
	}

	cost := pixels * (decoded + working)
	// Opaque YCbCr images (JPEG photos, lossy WebP without alpha) stay YCbCr while shrunk and
	// are encoded as JPEG; anything else is shrunk as RGBA, may be flattened onto white and
	// may be encoded as PNG (at worst as large as raw RGBA).
	ycbcr := (kind == JPEG && decoded < 4) || (kind == WebP && cfg.ColorModel == color.YCbCrModel)
	sw, sh := StoredSize(cfg.Width, cfg.Height)
	stored := float64(sw) * float64(sh)
	if sw != cfg.Width {
		// Halving to the stored size: each step a quarter of the last, a third of the
		// first step's size in all.
		perPixel := 4.0
		if ycbcr {
			perPixel = decoded
		}
		cost += pixels / 4 * perPixel * 4 / 3
	}
	if p.orientation > 1 {
		cost += stored * 8 // an RGBA copy of the shrunk image and the turned one
	}
	if ycbcr {
		cost += stored // the JPEG being written
	} else {
		cost += stored * 8 // the white-flattened copy and the encoded file
	}
	p.Cost = int64(cost) + 1<<20 // thumbnail buffers and decoder tables
	if p.Cost > maxDecode {
		return Plan{}, fmt.Errorf("%w: %dx%d %s needs %d MiB to decode, limit %d MiB",
			ErrTooMuchMemory, cfg.Width, cfg.Height, kind, p.Cost>>20, maxDecode>>20)
	}
	return p, nil
}

// bytesPerPixel is the decoded size of one pixel in the colour model a decoder reports.
func bytesPerPixel(m color.Model) float64 {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	case color.YCbCrModel:
		return 3 // 4:4:4 at worst; the JPEG layout says the real subsampling
	case color.NYCbCrAModel:
		return 4
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 4 // RGBA, NRGBA, CMYK and anything unknown
}

type jpegLayout struct {
	scans       int
	progressive bool
	// samples is bytes per pixel of all components together: 1.5 for 4:2:0 colour, 3 for
	// 4:4:4, 1 for greyscale, 4 for CMYK; 0 when no frame header was found.
	samples float64
}

// readJPEGLayout walks the markers of a JPEG, skipping entropy-coded data, to count its scans
// and read its frame header. It stops quietly at a truncation: the decoder reports that.
func readJPEGLayout(data []byte) jpegLayout {
	var l jpegLayout
	i := 2 // after SOI
	for i+1 < len(data) {
		if data[i] != 0xFF {
			i++ // garbage between segments; image/jpeg skips it too
			continue
		}
		marker := data[i+1]
		switch {
		case marker == 0xFF: // fill byte
			i++
			continue
		case marker == 0x01 || marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7):
			i += 2 // markers without a length
			continue
		case marker == 0xD9: // EOI
			return l
		}
		if i+4 > len(data) {
			return l
		}
		length := int(binary.BigEndian.Uint16(data[i+2:]))
		end := i + 2 + length
		if length < 2 || end > len(data) {
			return l
		}
		seg := data[i+4 : end]
		switch marker {
		case 0xC0, 0xC1, 0xC2: // the frame types image/jpeg decodes
			l.progressive = marker == 0xC2
			l.samples = jpegSamples(seg)
		case 0xDA: // SOS, then entropy-coded data up to the next real marker
			l.scans++
			end = skipEntropyData(data, end)
		}
		i = end
	}
	return l
}

// jpegSamples reads a frame header's components and sampling factors.
func jpegSamples(sof []byte) float64 {
	if len(sof) < 6 {
		return 0
	}
	n := int(sof[5])
	if n == 0 || len(sof) < 6+3*n {
		return 0
	}
	hMax, vMax := 1, 1
	for k := range n {
		f := sof[6+3*k+1]
		hMax, vMax = max(hMax, int(f>>4)), max(vMax, int(f&0x0F))
	}
	var total float64
	for k := range n {
		f := sof[6+3*k+1]
		h, v := max(int(f>>4), 1), max(int(f&0x0F), 1)
		total += float64(h*v) / float64(hMax*vMax)
	}
	if n == 4 {
		return 4 // decoded as CMYK, full resolution
	}
	return total
}

func skipEntropyData(data []byte, i int) int {
	for i+1 < len(data) {
		if data[i] == 0xFF {
			next := data[i+1]
			if next != 0x00 && next != 0xFF && (next < 0xD0 || next > 0xD7) {
				return i
			}
		}
		i++
	}
	return len(data)
}

// countGIFFrames walks a GIF's blocks (skipping their data) and counts image descriptors.
func countGIFFrames(data []byte) (int, error) {
	const header = 13
	if len(data) < header {
		return 0, fmt.Errorf("short header")
	}
	i := header
	if data[10]&0x80 != 0 { // global colour table
		i += 3 << (int(data[10]&0x07) + 1)
	}
	frames := 0
	skipSubBlocks := func(i int) int {
		for i < len(data) {
			n := int(data[i])
			i++
			if n == 0 {
				return i
			}
			i += n
		}
		return len(data)
	}
	for i < len(data) {
		switch data[i] {
		case 0x21: // extension: label, then sub-blocks
			i = skipSubBlocks(i + 2)
		case 0x2C: // image descriptor, optional local colour table, LZW minimum code size, data
			frames++
			if i+10 > len(data) {
				return frames, nil
			}
			flags := data[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << (int(flags&0x07) + 1)
			}
			i = skipSubBlocks(i + 1)
		case 0x3B: // trailer
			return frames, nil
		default:
			// image/gif refuses an unknown block too, after decoding what came before.
			return frames, nil
		}
	}
	return frames, nil
}
