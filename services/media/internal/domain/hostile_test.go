package domain

import (
	"errors"
	"image"
	"runtime"
	"testing"
	"time"

	"github.com/santa-wishlist/santa/fakes/hostileimages"
	"github.com/santa-wishlist/santa/fakes/testimages"
)

// localRules are the limits of the local stack's media (GOMEMLIMIT 100 MiB, half to decoding).
var localRules = Rules{MaxBytes: 8 << 20, MaxDecodeBytes: 50 << 20}

// Each hostile file is refused for its own reason, in milliseconds, allocating almost nothing:
// the header says too much before a pixel is decoded.
func TestHostileImagesAreRefusedBeforeDecoding(t *testing.T) {
	want := map[string]error{
		"png16-7000":          ErrTooMuchMemory,
		"png-huge-dimensions": ErrTooManyPixels,
		"png-49mp-rgba":       ErrTooMuchMemory,
		"jpeg-5000-scans":     ErrTooComplex,
		"gif-5000-frames":     ErrTooComplex,
		"webp-huge-canvas":    ErrTooManyPixels,
		"webp-48mp-alpha":     ErrTooMuchMemory,
		"jpeg-truncated":      ErrCorruptImage,
		"png16-truncated":     ErrTooMuchMemory,
		"jpeg-header-only":    ErrCorruptImage,
	}
	for _, c := range hostileimages.Corpus() {
		t.Run(c.Name, func(t *testing.T) {
			wantErr, ok := want[c.Name]
			if !ok {
				t.Fatalf("no expectation for %s", c.Name)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := Process(c.Data, localRules)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, wantErr) {
				t.Fatalf("%s (%d bytes): got %v, want %v", c.What, len(c.Data), err, wantErr)
			}
			allocated := after.TotalAlloc - before.TotalAlloc
			t.Logf("%s: %d bytes refused in %s, %d KiB allocated: %v", c.Name, len(c.Data), took, allocated>>10, err)
			if took > time.Second {
				t.Errorf("refusing took %s", took)
			}
			// The truncated photo decodes what it has (1200×900 YCbCr); nothing else decodes.
			if allocated > 8<<20 {
				t.Errorf("refusing allocated %d MiB", allocated>>20)
			}
		})
	}
}

// Costs follow the decoded depth: the same canvas costs four times more at 16 bits RGBA
// than as a 4:2:0 JPEG, and a progressive JPEG pays for its coefficients.
func TestInspectCostsByFormatAndDepth(t *testing.T) {
	photo, err := Inspect(testimages.TwoMBJPEG(), localRules) // 3000×2000 baseline 4:2:0
	if err != nil {
		t.Fatalf("a 6 MP photo must fit the local budget: %v", err)
	}
	if photo.Cost < 3000*2000*3/2 || photo.Cost > 40<<20 {
		t.Errorf("6 MP baseline JPEG costs %d MiB, want 9-40", photo.Cost>>20)
	}
	// A 12 MP phone photo fits the local stack's budget (half of media's 100 MiB GOMEMLIMIT)
	// with room for a second one.
	twelve := testimages.JPEG(image.NewYCbCr(image.Rect(0, 0, 4000, 3000), image.YCbCrSubsampleRatio420), 80)
	phone, err := Inspect(twelve, Rules{MaxBytes: 8 << 20, MaxDecodeBytes: 50 << 20})
	if err != nil || phone.Cost > 32<<20 {
		t.Errorf("12 MP baseline JPEG: cost %d MiB, %v; want it under 32 MiB", phone.Cost>>20, err)
	}
	small := hostileimages.PNG16(1000, 1000)
	p16, err := Inspect(small, localRules)
	if err != nil {
		t.Fatalf("a 1000×1000 16-bit PNG fits: %v", err)
	}
	if p16.Cost < 8*1000*1000 {
		t.Errorf("16-bit PNG of 1 MP costs %d bytes, want at least 8 a pixel", p16.Cost)
	}
	out, err := p16.Process(small)
	if err != nil || out.Image.Width != 1000 {
		t.Fatalf("16-bit PNG within the budget is accepted: %+v %v", out.Image.Width, err)
	}
	prog, err := Inspect(hostileimages.ManyScanJPEG(1000, 1000, 10), localRules)
	if err != nil {
		t.Fatalf("ten scans are fine: %v", err)
	}
	if !prog.Progressive || prog.Scans != 10 || prog.Cost < 5*1000*1000 {
		t.Errorf("progressive 1 MP grey JPEG: %+v, want progressive, 10 scans, 5 bytes a pixel", prog)
	}
}
