import Foundation
import CCairo
import CPNG
import CImageMemory
import SeatMapCore
import SeatMapLayout

/// A Cairo surface, destroyed with its wrapper. Creation checks the status
/// (Cairo never returns NULL: it returns an object in an error state).
final class CairoSurface {
    let pointer: OpaquePointer

    init(adopting pointer: OpaquePointer?, what: String) throws(SeatMapError) {
        guard let pointer else { throw SeatMapError("Cairo could not create \(what)") }
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(pointer)
            throw SeatMapError("Cairo could not create \(what): \(String(cString: cairo_status_to_string(status)))")
        }
        self.pointer = pointer
    }

    /// An ARGB32 image surface. From 2 MB on, its pixels are memory of
    /// their own on 2 MB boundaries that the kernel is asked to back with
    /// 2 MB pages when first written (Linux `MADV_HUGEPAGE`; ignored where
    /// unsupported or switched off): a 60-megapixel render otherwise takes
    /// ~60,000 page faults, a 7-megapixel one ~1,800 (3-6 ms of a 40 ms
    /// cinema render). The pixels are the same either way.
    convenience init(width: Int, height: Int) throws(SeatMapError) {
        let made = width > 0 && height > 0 && width <= Int(Int32.max) && height <= Int(Int32.max)
            ? seatmap_huge_image_surface_create(Int32(width), Int32(height)) : nil
        try self.init(adopting: made ?? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(clamping: width), Int32(clamping: height)),
                      what: "a \(width)×\(height) image")
    }

    deinit { cairo_surface_destroy(pointer) }

    func check(_ what: String) throws(SeatMapError) {
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw SeatMapError("Cairo failed while \(what): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

/// The pixels of tile frames drawn one after another by one worker: one
/// allocation, reused. A fresh surface per tile cost a page fault (and the
/// kernel's zeroing) for every page of every tile: at 10,000 seats, about
/// as many pages again as the image itself. A tile's part is filled with
/// the background before anything is drawn on it, and every pixel is
/// composited on its own, so what the previous tile left outside the part
/// is never copied out; under a background that is not opaque the frame is
/// cleared first, as a fresh surface is.
final class FrameMemory {
    private var bytes: UnsafeMutableRawPointer?
    private var capacity = 0

    init() {}

    deinit { free(bytes) }

    /// An ARGB32 surface over this memory (valid until the next call), or
    /// nil when the memory cannot be had (the caller makes a fresh one).
    func surface(width: Int, height: Int, clear: Bool) throws(SeatMapError) -> CairoSurface? {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        guard stride > 0 else { return nil }
        let size = stride * height
        if size > capacity {
            free(bytes)
            bytes = nil
            capacity = 0
            var made: UnsafeMutableRawPointer? = nil
            guard posix_memalign(&made, 2 << 20, size) == 0, let made else { return nil }
            #if os(Linux)
            if size >= 4 << 20 { _ = madvise(made, size, MADV_HUGEPAGE) }  // as `CairoSurface` asks for its pixels
            #endif
            bytes = made
            capacity = size
        }
        guard let bytes else { return nil }
        if clear { memset(bytes, 0, size) }
        return try CairoSurface(adopting: cairo_image_surface_create_for_data(bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                              Int32(width), Int32(height), Int32(stride)),
                                what: "a \(width)×\(height) tile")
    }
}
