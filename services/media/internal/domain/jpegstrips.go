package domain

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"sync"
)

// encodeJPEGStrips encodes img as one baseline JPEG on several cores. image/jpeg encodes on
// one goroutine, and for a phone photo that is the slowest step of an upload. A JPEG may
// hold restart markers: at each one the decoder resets its DC predictors and realigns to a
// byte, so independently encoded horizontal strips can be stitched into one valid stream.
// Each strip is encoded by image/jpeg itself (same quantisation and Huffman tables for the
// same quality); we keep the first strip's headers, fix the height, add a DRI segment and
// join the strips' scan data with RSTn markers. Strip heights are whole MCU rows, so the
// decoded pixels are exactly those of a single-stream encode.
func encodeJPEGStrips(img image.Image, quality, workers int) ([]byte, error) {
	b := img.Bounds()
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	const mcuRowPixels = 16 // 4:2:0 colour MCU height; grey MCUs (8) divide it
	mcuRows := (b.Dy() + mcuRowPixels - 1) / mcuRowPixels
	if !ok || workers < 2 || mcuRows < 4*workers {
		return encodeSingle(img, quality)
	}
	// At most 65535 MCUs per restart interval, and a few strips per worker so that the
	// workers finish together.
	mcusPerRow := (b.Dx() + 7) / 8 // upper bound, the grey case
	stripRows := min((mcuRows+2*workers-1)/(2*workers), 65535/(mcusPerRow*2))
	if stripRows < 1 {
		return encodeSingle(img, quality)
	}
	stripHeight := stripRows * mcuRowPixels
	var rects []image.Rectangle
	for y := b.Min.Y; y < b.Max.Y; y += stripHeight {
		rects = append(rects, image.Rect(b.Min.X, y, b.Max.X, min(y+stripHeight, b.Max.Y)))
	}

	encoded := make([][]byte, len(rects))
	errs := make([]error, len(rects))
	slots := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, r := range rects {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			encoded[i], errs[i] = encodeSingle(sub.SubImage(r), quality)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return stitch(encoded, b.Dy(), stripHeight)
}

func encodeSingle(img image.Image, quality int) ([]byte, error) {
	var buf bytes.Buffer
	b := img.Bounds()
	buf.Grow(b.Dx() * b.Dy() / 3)
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// stripLayout locates what stitch needs in one image/jpeg output.
type stripLayout struct {
	sofHeight  int // offset of the SOF0 height field
	sos        int // offset of the SOS marker
	scan       int // first byte of entropy-coded data
	end        int // offset of the EOI marker
	components int
	maxH, maxV int // largest sampling factors, which give the MCU size
}

func parseStrip(data []byte) (stripLayout, error) {
	var l stripLayout
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 || data[len(data)-2] != 0xFF || data[len(data)-1] != 0xD9 {
		return l, errors.New("strip is not a complete JPEG")
	}
	l.end = len(data) - 2
	pos := 2
	for pos+4 <= len(data) {
		if data[pos] != 0xFF {
			return l, fmt.Errorf("strip: no marker at %d", pos)
		}
		marker := data[pos+1]
		length := int(binary.BigEndian.Uint16(data[pos+2:]))
		if pos+2+length > len(data) {
			return l, errors.New("strip: segment overruns the data")
		}
		switch marker {
		case 0xC0: // SOF0: P, height, width, Nf, then Nf × (id, HV, Tq)
			seg := data[pos+4 : pos+2+length]
			if len(seg) < 6 {
				return l, errors.New("strip: short SOF0")
			}
			l.sofHeight = pos + 5
			l.components = int(seg[5])
			if len(seg) < 6+3*l.components {
				return l, errors.New("strip: short SOF0 components")
			}
			for c := range l.components {
				hv := seg[6+3*c+1]
				l.maxH, l.maxV = max(l.maxH, int(hv>>4)), max(l.maxV, int(hv&0x0F))
			}
		case 0xDA:
			if l.sofHeight == 0 {
				return l, errors.New("strip: SOS before SOF0")
			}
			l.sos, l.scan = pos, pos+2+length
			return l, nil
		}
		pos += 2 + length
	}
	return l, errors.New("strip: no SOS")
}

func stitch(strips [][]byte, height, stripHeight int) ([]byte, error) {
	if len(strips) == 1 {
		return strips[0], nil
	}
	first, err := parseStrip(strips[0])
	if err != nil {
		return nil, err
	}
	width := int(binary.BigEndian.Uint16(strips[0][first.sofHeight+2:]))
	mcuW, mcuH := 8*first.maxH, 8*first.maxV
	if stripHeight%mcuH != 0 {
		return nil, fmt.Errorf("strip height %d is not a whole number of %d-pixel MCU rows", stripHeight, mcuH)
	}
	interval := ((width + mcuW - 1) / mcuW) * (stripHeight / mcuH)
	if interval > 0xFFFF {
		return nil, fmt.Errorf("restart interval %d too long", interval)
	}

	total := 0
	for _, s := range strips {
		total += len(s)
	}
	out := make([]byte, 0, total)
	out = append(out, strips[0][:first.sos]...)
	binary.BigEndian.PutUint16(out[first.sofHeight:], uint16(height))
	out = append(out, 0xFF, 0xDD, 0x00, 0x04, byte(interval>>8), byte(interval))
	out = append(out, strips[0][first.sos:first.scan]...)
	for i, s := range strips {
		l := first
		if i > 0 {
			if l, err = parseStrip(s); err != nil {
				return nil, err
			}
			if l.components != first.components || l.maxH != first.maxH || l.maxV != first.maxV {
				return nil, errors.New("strips were encoded differently")
			}
		}
		out = append(out, s[l.scan:l.end]...)
		if i < len(strips)-1 {
			out = append(out, 0xFF, 0xD0+byte(i%8))
		}
	}
	return append(out, 0xFF, 0xD9), nil
}
