//! The one payload decoder: a table's stored payload, whatever its compression, decoded to
//! exactly its `raw_len` bytes of entries, either straight into the entries' own buffer (what
//! loading does) or through a scratch chunk (what verification does, hashing them as they pass).

use super::{read_up_to, PdbFile, CHUNK};
use crate::format::codes::Compression;
use crate::format::error::FormatError;
use std::io::{self, Read};
use zstd::zstd_safe::{get_error_name, DCtx, DParameter, InBuffer, OutBuffer};

impl PdbFile {
    /// Decodes table `table`'s payload, read from `stored`, into `dst` (exactly `raw_len` bytes
    /// long, whatever it held), or, without one, through a scratch chunk. `each(chunk, done)`
    /// receives the decoded bytes in order, a chunk at a time, with the number decoded so far.
    ///
    /// Raw payloads are read; a zstd frame is decoded with `dst` as its window (no window
    /// buffer is allocated, whatever the frame's window size); a gzip member goes through a
    /// 32 KiB window; a `zstd-sym` payload is decoded from its kept entries or its source
    /// table (into a buffer of its own when there is no `dst`). What follows the frame or
    /// member in `stored` is not read. Errors: `Truncated` for a raw payload that ends early,
    /// `Io` for reads, `Decompress` for a payload that does not decode to exactly `raw_len`
    /// bytes.
    pub(super) fn decode(
        &self,
        table: usize,
        stored: &mut dyn Read,
        dst: Option<&mut [u8]>,
        each: &mut dyn FnMut(&[u8], u64),
    ) -> Result<(), FormatError> {
        let t = &self.header.tables[table];
        let len = t.raw_len as usize;
        let mut scratch = Vec::new();
        let mut out = match dst {
            Some(dst) => {
                debug_assert_eq!(dst.len(), len);
                Output::new(dst, true, each)
            }
            None => {
                scratch.resize(len.min(CHUNK), 0);
                Output {
                    len,
                    ..Output::new(&mut scratch, false, each)
                }
            }
        };
        let bad = |why: String| self.decompress_err(table, why);
        match t.compression {
            Compression::None => out.read_from(
                stored,
                |e| self.io_err(e),
                |done| FormatError::Truncated {
                    what: format!("payload of table {table}"),
                    expected: t.payload_offset + t.stored_len,
                    found: t.payload_offset + done as u64,
                },
            ),
            Compression::Gzip => {
                let mut decoder = flate2::read::GzDecoder::new(stored);
                let fewer = |done| {
                    bad(format!(
                        "it decodes to {done} bytes, fewer than the declared {len}"
                    ))
                };
                out.read_from(&mut decoder, |e| bad(e.to_string()), fewer)?;
                let mut extra = [0u8; 1];
                if read_up_to(&mut decoder, &mut extra).map_err(|e| bad(e.to_string()))? != 0 {
                    return Err(bad(format!(
                        "it decodes to more than the declared {len} bytes"
                    )));
                }
                Ok(())
            }
            Compression::Zstd => self.decode_zstd(table, stored, &mut out),
            Compression::ZstdSymmetric => {
                // Everything that can be checked is, before a buffer of `raw_len` is allocated.
                let payload = self.read_symmetric(table, stored)?;
                out.fill_whole(|entries| self.decode_symmetric(table, &payload, entries))
            }
        }
    }

    /// Decodes table `table`'s zstd frame, read from `stored`, into `out`.
    fn decode_zstd(
        &self,
        table: usize,
        stored: &mut dyn Read,
        out: &mut Output<'_>,
    ) -> Result<(), FormatError> {
        let len = out.len;
        let bad = |why: String| self.decompress_err(table, why);
        let zerr = |code: usize| bad(get_error_name(code).to_string());
        let mut dctx =
            DCtx::try_create().ok_or_else(|| bad("cannot create a zstd decoder".into()))?;
        if out.whole {
            // The whole destination is the output buffer of every call: zstd then decodes in
            // place and uses it as the window instead of allocating one.
            dctx.set_parameter(DParameter::StableOutBuffer(true))
                .map_err(zerr)?;
        }
        dctx.set_parameter(DParameter::WindowLogMax(27))
            .map_err(zerr)?;
        let mut input = vec![0u8; CHUNK];
        let (mut pos, mut end) = (0, 0);
        loop {
            let (buf, at) = out.zstd_buffer();
            let mut outb = OutBuffer::around_pos(buf, at);
            let mut inb = InBuffer::around(&input[pos..end]);
            let hint = dctx.decompress_stream(&mut outb, &mut inb).map_err(zerr)?;
            let (produced, consumed) = (outb.pos() - at, inb.pos());
            out.advance(produced);
            pos += consumed;
            if hint == 0 {
                break;
            }
            if produced == 0 && consumed == 0 {
                if pos < end {
                    // Input left and no room for what it decodes to.
                    return Err(bad(format!(
                        "it decodes to more than the declared {len} bytes"
                    )));
                }
                (pos, end) = (
                    0,
                    read_up_to(stored, &mut input).map_err(|e| self.io_err(e))?,
                );
                if end == 0 {
                    return Err(bad(format!(
                        "the frame ends early, after {} of {len} bytes",
                        out.done
                    )));
                }
            }
        }
        if out.done != len {
            return Err(bad(format!(
                "it decodes to {} bytes, fewer than the declared {len}",
                out.done
            )));
        }
        Ok(())
    }
}

/// Where decoded bytes go: the whole destination, filled in order, or a scratch chunk that
/// each chunk overwrites once passed on.
struct Output<'a> {
    buf: &'a mut [u8],
    /// Whether `buf` is the whole destination (else a scratch chunk).
    whole: bool,
    /// The bytes to decode in all.
    len: usize,
    /// The bytes decoded so far.
    done: usize,
    each: &'a mut dyn FnMut(&[u8], u64),
}

impl<'a> Output<'a> {
    fn new(buf: &'a mut [u8], whole: bool, each: &'a mut dyn FnMut(&[u8], u64)) -> Self {
        Output {
            len: buf.len(),
            buf,
            whole,
            done: 0,
            each,
        }
    }

    /// Where in `buf` the next bytes go.
    fn at(&self) -> usize {
        if self.whole {
            self.done
        } else {
            0
        }
    }

    /// The room for the next bytes, at most a chunk.
    fn next(&mut self) -> &mut [u8] {
        let (at, n) = (self.at(), (self.len - self.done).min(CHUNK));
        &mut self.buf[at..at + n]
    }

    /// The buffer a zstd frame is decoded into, and where in it the next bytes go: the whole
    /// destination (the same buffer at every call, as zstd's stable output buffer wants), or
    /// the room [`Output::next`] gives.
    fn zstd_buffer(&mut self) -> (&mut [u8], usize) {
        if self.whole {
            (&mut *self.buf, self.done)
        } else {
            (self.next(), 0)
        }
    }

    /// Passes on the `n` bytes just decoded into the room that [`Output::next`] gave.
    fn advance(&mut self, n: usize) {
        let at = self.at();
        self.done += n;
        (self.each)(&self.buf[at..at + n], self.done as u64);
    }

    /// Reads everything from `r`; `fail` maps read errors, `short(done)` is the error for
    /// input that ends after `done` bytes.
    fn read_from(
        &mut self,
        r: &mut dyn Read,
        fail: impl Fn(io::Error) -> FormatError,
        short: impl Fn(usize) -> FormatError,
    ) -> Result<(), FormatError> {
        while self.done < self.len {
            let got = read_up_to(r, self.next()).map_err(&fail)?;
            if got == 0 {
                return Err(short(self.done));
            }
            self.advance(got);
        }
        Ok(())
    }

    /// Fills the whole destination at once with `fill` (given a buffer of the whole length
    /// of its own when this output is a scratch chunk), then passes it on a chunk at a time.
    fn fill_whole(
        &mut self,
        fill: impl FnOnce(&mut [u8]) -> Result<(), FormatError>,
    ) -> Result<(), FormatError> {
        if !self.whole {
            let mut all = vec![0u8; self.len];
            return Output::new(&mut all, true, &mut *self.each).fill_whole(fill);
        }
        fill(self.buf)?;
        while self.done < self.len {
            let n = (self.len - self.done).min(CHUNK);
            self.advance(n);
        }
        Ok(())
    }
}
