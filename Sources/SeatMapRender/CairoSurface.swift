import Foundation
import CCairo
import CPNG
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

    /// An ARGB32 image surface.
    convenience init(width: Int, height: Int) throws(SeatMapError) {
        try self.init(adopting: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
                      what: "a \(width)×\(height) image")
        adviseHugePages()
    }

    /// Asks the kernel to back a large image's memory with 2 MB pages when
    /// it is first written (Linux `MADV_HUGEPAGE`; ignored where unsupported
    /// or switched off). A 60-megapixel render otherwise takes ~60,000 page
    /// faults; the pixels are the same either way.
    private func adviseHugePages() {
        #if os(Linux)
        guard let data = cairo_image_surface_get_data(pointer) else { return }
        let bytes = Int(cairo_image_surface_get_stride(pointer)) * Int(cairo_image_surface_get_height(pointer))
        let huge = 2 << 20
        guard bytes >= 2 * huge else { return }
        let start = (Int(bitPattern: data) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: data) + bytes) & ~(huge - 1)
        guard end > start, let base = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(base, end - start, MADV_HUGEPAGE)
        #endif
    }

    deinit { cairo_surface_destroy(pointer) }

    func check(_ what: String) throws(SeatMapError) {
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw SeatMapError("Cairo failed while \(what): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}
