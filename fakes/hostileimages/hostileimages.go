// Package hostileimages builds the decompression bombs and malformed files the media service
// must refuse quickly, in little memory, with a 4xx. Media's unit and fuzz tests and the
// `make security` suite (over the running stack) use the same corpus. Each file is built in
// a few milliseconds from its header up, never by encoding the huge image it announces.
package hostileimages

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"sync"
)

// Case is one hostile file and what it is.
type Case struct {
	Name string
	What string
	Data []byte
}

var (
	once   sync.Once
	corpus []Case
)

// Corpus is every hostile file, built once.
func Corpus() []Case {
	once.Do(func() {
		photo := photoJPEG(1200, 900)
		corpus = []Case{
			{"png16-7000", "16-bit RGBA PNG of 7000x7000 (under 50 MP, 392 MB decoded) in a few hundred KB", PNG16(7000, 7000)},
			{"png-huge-dimensions", "PNG header announcing 100000x100000 pixels in 100 bytes", pngHeaderOnly(100000, 100000, 8, 6)},
			{"png-49mp-rgba", "8-bit RGBA PNG header of 7000x7000 (196 MB decoded), no pixel data", pngHeaderOnly(7000, 7000, 8, 6)},
			{"jpeg-5000-scans", "progressive JPEG of 2048x2048 with 5000 scans", ManyScanJPEG(2048, 2048, 5000)},
			{"gif-5000-frames", "GIF of 5000 frames", ManyFrameGIF(5000)},
			{"webp-huge-canvas", "WebP (VP8X) announcing a 16384x16384 canvas", WebPCanvas(16384, 16384, false)},
			{"webp-48mp-alpha", "WebP (VP8X) announcing 8000x6000 with alpha (120 MB decoded)", WebPCanvas(8000, 6000, true)},
			{"jpeg-truncated", "a 1200x900 JPEG cut after a third", photo[:len(photo)/3]},
			{"png16-truncated", "the 16-bit 7000x7000 PNG cut after its first kilobyte", PNG16(7000, 7000)[:1024]},
			{"jpeg-header-only", "a JPEG that ends after its frame header", photo[:headerEnd(photo)]},
		}
	})
	return corpus
}

// PNG16 is a valid 16-bit RGBA PNG of w×h transparent black pixels. One compressed row is
// repeated: each copy is a complete sync-flushed deflate block, so copies can follow each
// other, and only the checksum needs the whole (zero) image.
func PNG16(w, h int) []byte {
	row := make([]byte, 1+w*8) // filter byte "none", then 8 bytes a pixel
	var one bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&one, zlib.BestCompression)
	_, _ = zw.Write(row)
	_ = zw.Flush()
	// Strip the 2-byte zlib header; keep the deflate blocks of one row.
	block := one.Bytes()[2:]
	sum := adler32.New()
	for range h {
		_, _ = sum.Write(row)
	}
	var idat bytes.Buffer
	idat.Write([]byte{0x78, 0xDA})
	for range h {
		idat.Write(block)
	}
	idat.Write([]byte{0x03, 0x00}) // final empty fixed-Huffman block
	_ = binary.Write(&idat, binary.BigEndian, sum.Sum32())
	return pngFile(w, h, 16, 6, idat.Bytes())
}

func pngHeaderOnly(w, h int, depth, colorType byte) []byte {
	return pngFile(w, h, depth, colorType, []byte{0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
}

func pngFile(w, h int, depth, colorType byte, idat []byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = depth, colorType
	chunk(&b, "IHDR", ihdr)
	chunk(&b, "IDAT", idat)
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

func chunk(b *bytes.Buffer, kind string, data []byte) {
	_ = binary.Write(b, binary.BigEndian, uint32(len(data)))
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	b.WriteString(kind)
	b.Write(data)
	_ = binary.Write(b, binary.BigEndian, crc.Sum32())
}

// ManyScanJPEG is a greyscale progressive JPEG header of w×h followed by scans DC scans of
// almost no data each.
func ManyScanJPEG(w, h, scans int) []byte {
	var b bytes.Buffer
	b.Write([]byte{0xFF, 0xD8})
	// DQT: table 0, all ones.
	dqt := append([]byte{0x00}, bytes.Repeat([]byte{1}, 64)...)
	segment(&b, 0xDB, dqt)
	// SOF2: precision 8, height, width, one component (id 1, 1x1 sampling, table 0).
	segment(&b, 0xC2, []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 1, 1, 0x11, 0})
	// DHT: DC table 0 with one code of length 1 for category 0.
	dht := []byte{0x00, 1}
	dht = append(dht, make([]byte, 15)...)
	dht = append(dht, 0)
	segment(&b, 0xC4, dht)
	for range scans {
		// SOS: one component (id 1, tables 0/0), Ss=0, Se=0, Ah=0, Al=0; one byte of data.
		segment(&b, 0xDA, []byte{1, 1, 0x00, 0, 0, 0})
		b.WriteByte(0x00)
	}
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}

func segment(b *bytes.Buffer, marker byte, data []byte) {
	b.Write([]byte{0xFF, marker, byte((len(data) + 2) >> 8), byte(len(data) + 2)})
	b.Write(data)
}

// ManyFrameGIF is a valid 64×64 GIF of n one-pixel frames.
func ManyFrameGIF(n int) []byte {
	pal := color.Palette{color.Black, color.White}
	g := &gif.GIF{Config: image.Config{ColorModel: pal, Width: 64, Height: 64}}
	for i := range n {
		frame := image.NewPaletted(image.Rect(i%64, i/64%64, i%64+1, i/64%64+1), pal)
		g.Image = append(g.Image, frame)
		g.Delay = append(g.Delay, 0)
	}
	var b bytes.Buffer
	_ = gif.EncodeAll(&b, g)
	return b.Bytes()
}

// WebPCanvas is an extended WebP header (VP8X) announcing a w×h canvas and nothing else.
func WebPCanvas(w, h int, alpha bool) []byte {
	vp8x := make([]byte, 10)
	if alpha {
		vp8x[0] = 0x10
	}
	putUint24(vp8x[4:], uint32(w-1))
	putUint24(vp8x[7:], uint32(h-1))
	var body bytes.Buffer
	body.WriteString("WEBP")
	body.WriteString("VP8X")
	_ = binary.Write(&body, binary.LittleEndian, uint32(len(vp8x)))
	body.Write(vp8x)
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(body.Len()))
	b.Write(body.Bytes())
	return b.Bytes()
}

func putUint24(b []byte, v uint32) { b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16) }

func photoJPEG(w, h int) []byte {
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	for i := range img.Y {
		img.Y[i] = byte(i * 7 % 251)
	}
	var b bytes.Buffer
	_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: 85})
	return b.Bytes()
}

// headerEnd is the offset just past a JPEG's frame header (SOF0).
func headerEnd(data []byte) int {
	for i := 2; i+4 < len(data); {
		length := int(binary.BigEndian.Uint16(data[i+2:]))
		if data[i+1] == 0xC0 {
			return i + 2 + length
		}
		i += 2 + length
	}
	return len(data)
}
