import CCairo
import CPNG
import SeatMapCore

/// A Cairo drawing context with SeatMap's fixed font options, destroyed
/// with its wrapper.
final class CairoContext {
    let cr: OpaquePointer
    let surface: CairoSurface

    init(_ surface: CairoSurface) throws(SeatMapError) {
        guard let cr = cairo_create(surface.pointer) else { throw SeatMapError("Cairo could not create a context") }
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(cr)
            throw SeatMapError("Cairo could not create a context: \(String(cString: cairo_status_to_string(status)))")
        }
        self.cr = cr
        self.surface = surface
        CairoContext.withFixedFontOptions { cairo_set_font_options(cr, $0) }
    }

    deinit { cairo_destroy(cr) }

    /// SeatMap's fixed font options (grey antialiasing, no hinting, no
    /// hinted metrics): output must not drift with a machine's fontconfig
    /// settings (golden images depend on it). Cairo and Pango both get them,
    /// the same on every thread (Cairo's scaled fonts are shared as Cairo
    /// keeps them).
    static func withFixedFontOptions(_ body: (OpaquePointer) -> Void) {
        guard let options = cairo_font_options_create() else { return }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        body(options)
        cairo_font_options_destroy(options)
    }

    func check(_ what: String) throws(SeatMapError) {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw SeatMapError("Cairo failed while \(what): \(String(cString: cairo_status_to_string(status)))")
        }
        try surface.check(what)
    }
}
