/// The skeleton of SeatMap's self-contained HTML reports (`verify-taps
/// --report`, `diff --report`, a failing snapshot's report): one file, no
/// outside resources, readable and accessible on its own.
public enum HTMLPage {
    /// Text or an attribute value as HTML.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A whole page: `body` inside `<main>`, with the shared styles and the page's own.
    public static func document(title: String, style: String = "", script: String = "", body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1b1b;background:#fff}
        main{padding:16px 20px;max-width:1600px}
        h1{font-size:1.4em;margin:0 0 .4em}h2{font-size:1.15em;margin:1.2em 0 .4em}
        table{border-collapse:collapse}th,td{border-bottom:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
        code{font-family:ui-monospace,monospace}
        .pass{color:#0a6b25}.fail{color:#a30000}
        \(style)
        </style></head>
        <body><main>
        \(body)
        </main>\(script.isEmpty ? "" : "\n<script>\n\(script)\n</script>")
        </body></html>

        """
    }
}
