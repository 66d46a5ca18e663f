/// The frame every page shares: the document head with the common style
/// (plus a page's own), and the closing script that sorts and filters
/// tables, opens what a link points into, zooms timelines and marks the
/// body ready.
///
/// The style fits a phone (390 px) without the page scrolling sideways:
/// tables scroll inside their own box (``scrollingTables(_:)``), charts
/// shrink with the width (their view box), long words break; a report's
/// table of contents (``HTMLContents``) is a column beside the page on a
/// wide screen and a bar along the top on a narrow one.
enum HTMLPage {
    /// Up to and including `<body>`; `title` is escaped here.
    static func opening(title: String, style extra: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escapeHTML(title))</title>
        <style>\(style)\(extra)</style></head><body>

        """
    }

    static let closing = "<script>\(script)</script></body></html>\n"

    /// Every table of `html` inside a box of its own that scrolls sideways
    /// when the table is wider than the page (`html` is the page's own
    /// markup, whose data is escaped: every `<table` is a table).
    static func scrollingTables(_ html: String) -> String {
        html.replacingOccurrences(of: "<table", with: "<div class=\"scroll\"><table").replacingOccurrences(of: "</table>", with: "</table></div>")
    }

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px;overflow-wrap:break-word}
        h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}h3{font-size:1em;margin:1.2em 0 .4em}
        table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
        thead th{background:#f3f3f3;cursor:pointer}code{font-size:12px;word-break:break-all}
        .status.passed,tr.passed td:nth-child(2){color:#26734d}.status.failed,tr.failed td:nth-child(2),.error{color:#b02a2a}
        .status.skipped{color:#8a6d00}tr.advisory{color:#777}tr.full-scan td:nth-child(7){color:#b02a2a;font-weight:bold}
        tr.scan-on-purpose td:nth-child(7){color:#777}
        .insights li{margin:.4em 0}.insights li.accepted,.insights li.withdrawn{color:#777}.evidence,.site,.note{color:#555;font-size:12px}
        .fix-first li{margin:.3em 0}.gain{color:#26734d;font-size:12px}.what-if{margin:.3em 0 .1em}.what-if td{text-align:right}
        .verdict-faster .verdict{color:#26734d}.verdict-slower .verdict,.verdict-no-gain .verdict{color:#8a6d00}
        .filter{margin:.3em 0;padding:2px 6px;max-width:100%;box-sizing:border-box}.description{max-width:850px}
        .verdict-reproduced .verdict{color:#26734d}.verdict-weaker .verdict{color:#8a6d00}.verdict-absent .verdict,.verdict-inverted .verdict{color:#b02a2a}
        .scroll{overflow-x:auto;max-width:100%;margin:.4em 0}.scroll>table{margin:0}
        svg.chart{max-width:100%;height:auto}
        td[data-value]{white-space:nowrap}
        body>header h1{margin:0 0 .2em}.headline{margin:0 0 .5em;color:#555}.headline.failed{color:#b02a2a;font-weight:bold}
        .layout{display:grid;grid-template-columns:190px minmax(0,1fr);gap:2em;align-items:start}main{min-width:0}
        nav.toc{position:sticky;top:0;max-height:100vh;overflow-y:auto;box-sizing:border-box;padding:.6em 0;font-size:13px}
        nav.toc ul{list-style:none;margin:0;padding:0}nav.toc li{margin:.2em 0}nav.toc ul ul{margin:.2em 0 .4em .8em;font-size:12px}
        nav.toc a{color:#245;text-decoration:none}nav.toc a:hover{text-decoration:underline}
        nav.toc a.failed,nav.toc a.failed .note{color:#b02a2a}nav.toc a.skipped,nav.toc a.skipped .note{color:#8a6d00}
        .toc-top{display:inline-block;margin-bottom:.4em}
        .to-top{position:fixed;right:14px;bottom:14px;width:36px;height:36px;line-height:36px;text-align:center;border-radius:18px;
        background:#4a7fb5;color:#fff;text-decoration:none;font-size:18px;box-shadow:0 1px 4px rgba(0,0,0,.3)}
        [id]{scroll-margin-top:.6em}
        .failures{border:1px solid #e3b5b5;background:#fdf3f3;padding:0 1em .4em;border-radius:4px;margin-top:1em}
        .failures h2{margin-top:.5em;color:#b02a2a;border-bottom-color:#e3b5b5}.failures li{margin:.3em 0}
        .reason{color:#b02a2a}h2 .count{font-size:.8em;color:#777;font-weight:normal}
        details.fold{margin:.5em 0}details>summary{cursor:pointer}details.fold>summary h3{display:inline;margin:0}
        summary .inside{color:#555;font-size:12px}details.on-purpose{color:#555;margin:.3em 0}
        .timeline .zoom{display:flex;gap:.4em;align-items:center;margin:.4em 0}.timeline .zoom button{min-width:2.2em}
        .timeline .pan{flex:1;min-width:0;max-width:400px}.timeline .level{font-size:12px;color:#555}
        .timeline .lanes{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:6px}
        .timeline .names span{display:block;font-size:11px;line-height:18px}.timeline svg.track{display:block;background:#fafafa}
        .timeline .axis{display:flex;justify-content:space-between;font-size:11px;color:#555}
        @media (max-width:800px){
        body{margin:.6em .6em 3.5em}.layout{display:block}
        nav.toc{z-index:2;background:#fff;max-height:none;overflow-x:auto;white-space:nowrap;margin:0 -.6em;padding:.45em .6em;
        border-bottom:1px solid #ddd}
        nav.toc ul,nav.toc li{display:inline}nav.toc li{margin:0 .9em 0 0}nav.toc ul ul{display:none}.toc-top{margin:0 .9em 0 0}
        [id]{scroll-margin-top:2.8em}h2{margin-top:1.4em}
        #experiments td:last-child,#experiments th:last-child{min-width:16em}
        }
        @media print{thead th{cursor:auto}.filter,.to-top,.zoom{display:none}nav.toc{position:static}}
        """

    static let script = """
        (function(){
          function cellOf(row, column){ var cell = row.cells[column]; return cell || row.cells[row.cells.length - 1]; }
          document.querySelectorAll('table.sortable').forEach(function(table){
            table.querySelectorAll('thead th').forEach(function(header, column){
              header.addEventListener('click', function(){
                var body = table.tBodies[0];
                var rows = Array.prototype.slice.call(body.rows);
                var ascending = header.getAttribute('data-order') !== 'asc';
                rows.sort(function(a, b){
                  var x = cellOf(a, column), y = cellOf(b, column);
                  var p = parseFloat(x.getAttribute('data-value') || x.textContent), q = parseFloat(y.getAttribute('data-value') || y.textContent);
                  var order = (!isNaN(p) && !isNaN(q)) ? p - q : x.textContent.localeCompare(y.textContent);
                  return ascending ? order : -order;
                });
                rows.forEach(function(row){ body.appendChild(row); });
                header.setAttribute('data-order', ascending ? 'asc' : 'desc');
              });
            });
          });
          document.querySelectorAll('input.filter').forEach(function(input){
            var next = input.nextElementSibling;
            var table = next && next.tagName === 'TABLE' ? next : next && next.querySelector('table');
            if (!table) return;
            input.addEventListener('input', function(){
              var needle = input.value.toLowerCase();
              Array.prototype.forEach.call(table.tBodies[0].rows, function(row){
                row.style.display = row.textContent.toLowerCase().indexOf(needle) >= 0 ? '' : 'none';
              });
            });
          });
          // A link into a folded part opens it.
          function reveal(){
            var id = decodeURIComponent(location.hash.slice(1));
            var target = id && document.getElementById(id);
            if (!target) return;
            var opened = false;
            for (var e = target.parentElement; e; e = e.parentElement) {
              if (e.tagName === 'DETAILS' && !e.open) { e.open = true; opened = true; }
            }
            if (opened) target.scrollIntoView();
          }
          window.addEventListener('hashchange', reveal);
          reveal();
          // Timelines: + and − zoom about the middle of what shows, the slider moves along.
          function time(s){
            if (s === 0) return '0';
            var a = Math.abs(s), v, u;
            if (a >= 1) { v = s; u = ' s'; } else if (a >= 1e-3) { v = s * 1e3; u = ' ms'; } else if (a >= 1e-6) { v = s * 1e6; u = ' µs'; } else { v = s * 1e9; u = ' ns'; }
            var m = Math.abs(v);
            return (m >= 100 ? v.toFixed(0) : m >= 10 ? v.toFixed(1) : v.toFixed(2)) + u;
          }
          document.querySelectorAll('.timeline .zoom').forEach(function(bar){
            var figure = bar.parentElement, svg = figure.querySelector('svg.track');
            if (!svg) return;
            var box = svg.getAttribute('viewBox').split(' ').map(Number), width = box[2], height = box[3];
            var seconds = parseFloat(bar.getAttribute('data-seconds')) || 0;
            var pan = bar.querySelector('.pan'), level = bar.querySelector('.level');
            var from = figure.querySelector('.axis .from'), to = figure.querySelector('.axis .to');
            var zoom = 1, start = 0;
            function draw(){
              var shown = width / zoom;
              start = Math.max(0, Math.min(start, width - shown));
              svg.setAttribute('viewBox', start + ' 0 ' + shown + ' ' + height);
              pan.disabled = zoom === 1;
              pan.value = width - shown > 0 ? Math.round(start / (width - shown) * 1000) : 0;
              level.textContent = zoom + '×';
              from.textContent = time(seconds * start / width);
              to.textContent = time(seconds * (start + shown) / width);
            }
            bar.querySelectorAll('button').forEach(function(button){
              button.addEventListener('click', function(){
                var middle = start + width / zoom / 2, kind = button.getAttribute('data-zoom');
                zoom = kind === 'in' ? Math.min(zoom * 2, 4096) : kind === 'out' ? Math.max(zoom / 2, 1) : 1;
                start = middle - width / zoom / 2;
                draw();
              });
            });
            pan.addEventListener('input', function(){ start = (width - width / zoom) * pan.value / 1000; draw(); });
            draw();
          });
          document.body.setAttribute('data-ready', '1');
        })();
        """
}
