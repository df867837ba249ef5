package domain

import (
	"encoding/binary"
	"image"
)

// jpegOrientation reads the EXIF Orientation tag (1..8) of a JPEG, or 1 when there is none.
// Phones store portrait photos as landscape pixels plus this tag; since re-encoding drops
// EXIF, we must turn the pixels ourselves or the photo would show on its side.
func jpegOrientation(data []byte) int {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return 1
	}
	pos := 2
	for pos+4 <= len(data) {
		if data[pos] != 0xFF {
			return 1
		}
		marker := data[pos+1]
		if marker == 0xFF { // fill byte
			pos++
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan / end: no more metadata
			return 1
		}
		if marker >= 0xD0 && marker <= 0xD7 || marker == 0x01 { // markers without a length
			pos += 2
			continue
		}
		length := int(binary.BigEndian.Uint16(data[pos+2:]))
		if length < 2 || pos+2+length > len(data) {
			return 1
		}
		segment := data[pos+4 : pos+2+length]
		if marker == 0xE1 && len(segment) > 6 && string(segment[:6]) == "Exif\x00\x00" {
			if o := tiffOrientation(segment[6:]); o != 0 {
				return o
			}
		}
		pos += 2 + length
	}
	return 1
}

// tiffOrientation finds tag 0x0112 in IFD0 of a TIFF header, or returns 0.
func tiffOrientation(tiff []byte) int {
	if len(tiff) < 8 {
		return 0
	}
	var order binary.ByteOrder
	switch string(tiff[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return 0
	}
	if order.Uint16(tiff[2:]) != 42 {
		return 0
	}
	ifd := int(order.Uint32(tiff[4:]))
	if ifd < 8 || ifd+2 > len(tiff) {
		return 0
	}
	count := int(order.Uint16(tiff[ifd:]))
	for i := range count {
		entry := ifd + 2 + 12*i
		if entry+12 > len(tiff) {
			return 0
		}
		if order.Uint16(tiff[entry:]) != 0x0112 {
			continue
		}
		if order.Uint16(tiff[entry+2:]) != 3 { // SHORT
			return 0
		}
		if v := int(order.Uint16(tiff[entry+8:])); v >= 1 && v <= 8 {
			return v
		}
		return 0
	}
	return 0
}

// orient returns src turned upright according to an EXIF orientation value.
func orient(src image.Image, orientation int) image.Image {
	if orientation <= 1 || orientation > 8 {
		return src
	}
	rgba := toRGBA(src)
	w, h := rgba.Rect.Dx(), rgba.Rect.Dy()
	dw, dh := w, h
	if orientation >= 5 {
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := range dh {
		drow := dst.Pix[y*dst.Stride : y*dst.Stride+dw*4]
		for x := range dw {
			var sx, sy int
			switch orientation {
			case 2: // mirrored
				sx, sy = w-1-x, y
			case 3: // upside down
				sx, sy = w-1-x, h-1-y
			case 4: // mirrored upside down
				sx, sy = x, h-1-y
			case 5: // transposed
				sx, sy = y, x
			case 6: // rotate 90° clockwise to display
				sx, sy = y, h-1-x
			case 7: // transversed
				sx, sy = w-1-y, h-1-x
			case 8: // rotate 90° counter-clockwise to display
				sx, sy = w-1-y, x
			}
			s := sy*rgba.Stride + sx*4
			copy(drow[x*4:x*4+4], rgba.Pix[s:s+4])
		}
	}
	return dst
}
