import Foundation
import CCairo
import CPNG
import SeatMapCore

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
        // Both refuse a side out of range (the C function with NULL, Cairo with an error status).
        let w = Int32(clamping: width), h = Int32(clamping: height)
        try self.init(adopting: ImageMemory.hugeSurface(width: w, height: h) ?? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h),
                      what: "a \(width)×\(height) image")
    }

    deinit { cairo_surface_destroy(pointer) }

    /// Has another thread fault in the pixels of a surface on 2 MB pages
    /// of its own (`ImageMemory.populate`), the last page first, while
    /// this one draws from the top: the kernel's zeroing of a new image
    /// (~0.2 ms a 2 MB page here) off the drawing's path. Nothing for any
    /// other surface; the pixels are the same either way.
    func faultInAside() {
        guard let (pixels, length) = ImageMemory.hugePixels(pointer) else { return }
        let pages = PagesToFault(surface: self, pixels: pixels, length: length)
        DispatchQueue.global(qos: .userInitiated).async {
            ImageMemory.populate(pages.pixels, length: pages.length)
            withExtendedLifetime(pages.surface) {}
        }
    }

    func check(_ what: String) throws(SeatMapError) {
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw SeatMapError("Cairo failed while \(what): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

/// An image's pages for another thread to fault in, and the surface that
/// owns them, kept alive until it is done (it only asks the kernel).
private struct PagesToFault: @unchecked Sendable {
    let surface: CairoSurface
    let pixels: UnsafeMutableRawPointer
    let length: Int
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
    /// What was mapped for `bytes` (`ImageMemory.allocate`), or 0 when it came from the allocator.
    private var mapped = 0

    /// From this size on a frame's memory is whole 2 MB pages of its own
    /// (one page fault, and one page's zeroing, instead of one fault every
    /// 4 KB: the second tile of a cinema render at scale 2 took ~270).
    static let hugeFrom = 256 << 10

    init() {}

    deinit { release() }

    private func release() {
        if mapped > 0 { ImageMemory.free(bytes, mapped: mapped) } else { free(bytes) }
        bytes = nil
        capacity = 0
        mapped = 0
    }

    /// An ARGB32 surface over this memory (valid until the next call), or
    /// nil when the memory cannot be had (the caller makes a fresh one).
    func surface(width: Int, height: Int, clear: Bool) throws(SeatMapError) -> CairoSurface? {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        guard stride > 0 else { return nil }
        let size = stride * height
        if size > capacity {
            release()
            if size >= FrameMemory.hugeFrom, let (made, length) = ImageMemory.allocate(size) {
                bytes = made
                mapped = length
                capacity = length  // whole 2 MB pages: a larger frame may fit
            } else {
                var made: UnsafeMutableRawPointer? = nil
                guard posix_memalign(&made, 64, size) == 0, let made else { return nil }
                bytes = made
                capacity = size
            }
        }
        guard let bytes else { return nil }
        if clear { memset(bytes, 0, size) }
        return try CairoSurface(adopting: cairo_image_surface_create_for_data(bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                              Int32(width), Int32(height), Int32(stride)),
                                what: "a \(width)×\(height) tile")
    }
}
