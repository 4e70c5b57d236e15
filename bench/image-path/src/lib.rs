//! Owns: one function, `cover`, for the image-path measurement: the captured PNG decoded, each
//! box filled black, the image encoded as PNG again. Must never: ship (it is a bench's).
use wasm_bindgen::prelude::*;

/// `png` with each box of `boxes` (x, y, w, h in image pixels, flattened) filled black,
/// encoded again as PNG: `best` the crate's smallest output, else its default.
#[wasm_bindgen]
pub fn cover(png: &[u8], boxes: &[f64], best: bool) -> Vec<u8> {
    let mut dec = png::Decoder::new(png);
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let (w, h) = (info.width as usize, info.height as usize);
    let channels = info.color_type.samples();
    for b in boxes.chunks(4) {
        let (x0, y0) = (b[0].max(0.0) as usize, b[1].max(0.0) as usize);
        let (x1, y1) = (((b[0] + b[2]).ceil() as usize).min(w), ((b[1] + b[3]).ceil() as usize).min(h));
        for y in y0..y1 {
            for x in x0..x1 {
                let p = (y * w + x) * channels;
                for c in 0..channels.min(3) {
                    buf[p + c] = 0;
                }
            }
        }
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w as u32, h as u32);
        enc.set_color(info.color_type);
        enc.set_depth(png::BitDepth::Eight);
        if best {
            enc.set_compression(png::Compression::Best);
        }
        let mut writer = enc.write_header().expect("a header");
        writer.write_image_data(&buf[..w * h * channels]).expect("the pixels");
    }
    out
}
