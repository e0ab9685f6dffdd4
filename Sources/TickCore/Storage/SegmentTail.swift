import CZstd

/// How the cache stores a segment's tail (its cold records, extra records, text and folded area,
/// about two thirds of its bytes): as one Zstandard frame, at level 1. A view that reads only hot
/// or ref records never decompresses it; one that reads a list's titles decompresses that list's
/// tail once, into memory of its own (`SegmentProof`).
///
/// The stored frame is untrusted input: it is decompressed only into a buffer of exactly the
/// length that the segment's header gives, and used only when it is one whole frame that says it
/// holds that many bytes and does.
enum SegmentTail {
    /// Level 1 of 1 to 19: the fastest, which compresses tick's records and text to about half.
    static let level: Int32 = 1

    /// A Zstandard compression context, reused across the segments one thread compresses.
    final class Compressor {
        private let context: OpaquePointer

        init() {
            guard let made = ZSTD_createCCtx() else { preconditionFailure("Zstandard could not make a compression context") }
            context = made
        }

        deinit { ZSTD_freeCCtx(context) }

        /// `bytes` compressed into one frame that records its length.
        func compress(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
            let bound = ZSTD_compressBound(bytes.count)
            return [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
                let written = ZSTD_compressCCtx(context, buffer.baseAddress, bound, bytes.baseAddress, bytes.count,
                                                SegmentTail.level)
                // Compressing into a buffer of the bound fails only when memory runs out.
                precondition(ZSTD_isError(written) == 0, "Zstandard failed to compress a cache segment")
                count = written
            }
        }
    }

    /// A Zstandard decompression context, used by one thread at a time (`CacheContext.withDecompressor`).
    final class Decompressor: @unchecked Sendable {
        private let context: OpaquePointer

        init() {
            guard let made = ZSTD_createDCtx() else { preconditionFailure("Zstandard could not make a decompression context") }
            context = made
        }

        deinit { ZSTD_freeDCtx(context) }

        /// Decompresses `stored` into `output`: true when `stored` is exactly one frame that says
        /// it holds `output.count` bytes and decompresses to that many. The one bit of a frame that
        /// a decoder ignores (bit 4 of its header's descriptor, after the 4-byte magic number) must
        /// be 0, as tick writes it, so that every bit of a stored tail matters: a damaged cache is
        /// always found damaged.
        func decompress(_ stored: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool {
            guard let source = stored.baseAddress, stored.count > 4, stored[4] & 0x10 == 0,
                  ZSTD_findFrameCompressedSize(source, stored.count) == stored.count,
                  ZSTD_getFrameContentSize(source, stored.count) == UInt64(output.count)
            else { return false }
            let written = ZSTD_decompressDCtx(context, output.baseAddress, output.count, source, stored.count)
            return ZSTD_isError(written) == 0 && written == output.count
        }
    }
}
