# Loopback stand-in Kubernetes API server that misbehaves one way (issue 10 benchmark): stub-apiserver.py MODE PORT.
# Modes: stall-headers, stall-body, trickle (one byte per 100 ms), endless (chunked, never ends), empty200, html500.
# Binds 127.0.0.1 only and shuts itself down after 150 s.
import http.server, socketserver, sys, time, threading
mode = sys.argv[1]; port = int(sys.argv[2])
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_GET(self):
        if mode == "stall-headers":
            time.sleep(120); return
        if mode == "stall-body":
            self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", "100000"); self.end_headers()
            self.wfile.write(b'{"kind":"NodeList","apiVersion":"v1","items":['); self.wfile.flush(); time.sleep(120); return
        if mode == "trickle":
            body = b'{"kind":"NodeList","apiVersion":"v1","items":[]' + b' ' * 100000 + b'}'
            self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(body))); self.end_headers()
            for i in range(len(body)):
                try:
                    self.wfile.write(body[i:i+1]); self.wfile.flush(); time.sleep(0.1)
                except Exception: return
            return
        if mode == "endless":
            self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Transfer-Encoding", "chunked"); self.end_headers()
            chunk = b' ' * 65536
            t0 = time.time()
            while time.time() - t0 < 120:
                try:
                    self.wfile.write(b'%x\r\n' % len(chunk) + chunk + b'\r\n')
                except Exception: return
            return
        if mode == "empty200":
            self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", "0"); self.end_headers(); return
        if mode == "html500":
            body = b"<html>\x1b[31mboom\x07</html>"
            self.send_response(500); self.send_header("Content-Type", "text/html"); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body); return
class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
s = S(("127.0.0.1", port), H)
threading.Timer(150, s.shutdown).start()
s.serve_forever()
