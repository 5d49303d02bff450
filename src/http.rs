//! A small HTTP/1.1 server for `kbook serve` and the tests' static hosts: one thread per
//! connection, request heads parsed by `httparse`, keep-alive, `GET` and `HEAD`.
//!
//! A thread per connection, not a pool: a connection may stay open for minutes (a kept-alive
//! socket, a page's event stream), and a pool that hands new connections to busy workers
//! leaves a page waiting for its script until some other connection closes (tiny_http 0.12
//! did so when two connections arrived while one worker was idle).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

/// Longest request head accepted (request line and headers).
const MAX_HEAD: usize = 64 * 1024;
/// Headers read per request.
const MAX_HEADERS: usize = 64;
/// A kept-alive connection with no new request for this long is closed.
const IDLE: Duration = Duration::from_secs(60);

/// A request's method and target (the connection's fate is the server's business).
#[derive(Debug, Clone)]
pub struct Request {
    /// `GET` or `HEAD` (other methods are answered 405 before a handler sees them).
    pub method: String,
    /// The request target as sent (`/kafka/a.html?q=x`).
    pub url: String,
}

/// A complete response (the server adds `Content-Length` and `Connection`).
#[derive(Debug, Clone)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Header fields besides `Content-Length` and `Connection`.
    pub headers: Vec<(String, String)>,
    /// Body (not sent for `HEAD`).
    pub body: Vec<u8>,
}

impl Response {
    /// A response with one `Content-Type`.
    pub fn new(status: u16, content_type: &str, body: Vec<u8>) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body,
        }
    }

    /// Adds a header field.
    pub fn with_header(mut self, name: &str, value: &str) -> Response {
        self.headers.push((name.into(), value.into()));
        self
    }
}

/// What a handler does with a request: a response the server writes, or the connection
/// taken over (the handler wrote to it, e.g. an event stream; it is closed afterwards).
pub enum Reply {
    /// Written by the server; the connection stays open unless the client asked otherwise.
    Send(Response),
    /// The handler wrote to the stream itself.
    Taken,
}

/// A bound listener.
pub struct HttpServer {
    listener: TcpListener,
}

impl HttpServer {
    /// Binds `addr` (port 0: any free port).
    pub fn bind(addr: impl ToSocketAddrs) -> io::Result<HttpServer> {
        Ok(HttpServer {
            listener: TcpListener::bind(addr)?,
        })
    }

    /// The bound address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Accepts connections until the listener fails, each on a thread of its own.
    pub fn run<F>(&self, handler: F)
    where
        F: Fn(&Request, &mut TcpStream) -> Reply + Send + Sync + 'static,
    {
        let handler = Arc::new(handler);
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else { continue };
            let handler = Arc::clone(&handler);
            std::thread::spawn(move || {
                // A connection ends on any I/O error; the client reconnects if it wants.
                let _ = connection(stream, handler.as_ref());
            });
        }
    }
}

/// Answers the requests of one connection in order.
fn connection<F>(stream: TcpStream, handler: &F) -> io::Result<()>
where
    F: Fn(&Request, &mut TcpStream) -> Reply,
{
    let _ = stream.set_nodelay(true);
    stream.set_read_timeout(Some(IDLE))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    loop {
        let head = match read_head(&mut reader) {
            Ok(Some(head)) => head,
            Ok(None) => return Ok(()),
            Err(e) if e.get_ref().is_some_and(|e| e.is::<HeadTooLong>()) => {
                // Said, not reset: 414 for a long address, 431 for long headers. The rest
                // of the request is read (for a while) so that closing does not reset the
                // connection before the client has read the answer.
                let first_line = e
                    .get_ref()
                    .and_then(|e| e.downcast_ref::<HeadTooLong>())
                    .is_some_and(|t| t.first_line);
                let status = if first_line { 414 } else { 431 };
                let refused = Response::new(
                    status,
                    "text/plain; charset=utf-8",
                    reason(status).as_bytes().to_vec(),
                );
                write_response(&mut writer, &refused, false, true)?;
                let _ = writer.shutdown(std::net::Shutdown::Write);
                let _ = reader.get_mut().set_read_timeout(Some(LINGER));
                let _ = io::copy(&mut (&mut reader).take(LINGER_BYTES), &mut io::sink());
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut parsed = httparse::Request::new(&mut headers);
        let complete = matches!(parsed.parse(&head), Ok(httparse::Status::Complete(_)));
        let (Some(method), Some(url), Some(version), true) =
            (parsed.method, parsed.path, parsed.version, complete)
        else {
            let bad = Response::new(400, "text/plain; charset=utf-8", b"bad request".to_vec());
            return write_response(&mut writer, &bad, false, true);
        };
        let header = |name: &str| {
            parsed
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case(name))
                .map(|h| String::from_utf8_lossy(h.value).to_ascii_lowercase())
        };
        let connection = header("connection").unwrap_or_default();
        let mut close =
            connection.contains("close") || (version == 0 && !connection.contains("keep-alive"));
        // A body is read and dropped so the next request starts where it should; a body of
        // unknown length ends the connection after the response.
        if header("transfer-encoding").is_some() {
            close = true;
        } else if let Some(len) = header("content-length") {
            let Ok(len) = len.trim().parse::<u64>() else {
                let bad = Response::new(400, "text/plain; charset=utf-8", b"bad length".to_vec());
                return write_response(&mut writer, &bad, false, true);
            };
            io::copy(&mut (&mut reader).take(len), &mut io::sink())?;
        }
        let request = Request {
            method: method.to_string(),
            url: url.to_string(),
        };
        let if_none_match = header("if-none-match");
        let head_only = request.method == "HEAD";
        if request.method != "GET" && !head_only {
            let refused = Response::new(405, "text/plain; charset=utf-8", b"GET or HEAD".to_vec())
                .with_header("Allow", "GET, HEAD");
            write_response(&mut writer, &refused, false, close)?;
        } else {
            match handler(&request, &mut writer) {
                Reply::Send(response) => {
                    let response = validated(response, if_none_match.as_deref());
                    write_response(&mut writer, &response, head_only, close)?
                }
                Reply::Taken => return Ok(()),
            }
        }
        if close {
            return Ok(());
        }
    }
}

/// A request head over [`MAX_HEAD`]; `first_line`: its request line alone is (the address).
#[derive(Debug)]
struct HeadTooLong {
    first_line: bool,
}

impl std::fmt::Display for HeadTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("request head too long")
    }
}

impl std::error::Error for HeadTooLong {}

/// How long, and how much, the rest of a refused request is read before the connection closes.
const LINGER: Duration = Duration::from_secs(1);
const LINGER_BYTES: u64 = 8 << 20;

/// The next request head (up to and including the blank line), or `None` when the client
/// closed the connection or let it idle.
fn read_head(reader: &mut impl BufRead) -> io::Result<Option<Vec<u8>>> {
    let mut head = Vec::new();
    loop {
        let mut line = Vec::new();
        let n = match (&mut *reader)
            .take((MAX_HEAD + 1 - head.len()) as u64)
            .read_until(b'\n', &mut line)
        {
            Ok(n) => n,
            Err(e)
                if head.is_empty()
                    && matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        if n == 0 {
            return if head.is_empty() {
                Ok(None)
            } else {
                Err(io::ErrorKind::UnexpectedEof.into())
            };
        }
        // Blank lines before a request line are allowed (RFC 9112 §2.2).
        if head.is_empty() && (line == b"\r\n" || line == b"\n") {
            continue;
        }
        head.extend_from_slice(&line);
        if line == b"\r\n" || line == b"\n" {
            return Ok(Some(head));
        }
        if head.len() > MAX_HEAD || !line.ends_with(b"\n") {
            let first_line = head.len() == line.len();
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                HeadTooLong { first_line },
            ));
        }
    }
}

/// A 200 response with an `ETag` (a digest of its body), or `304 Not Modified` without the
/// body when the client already holds it (`If-None-Match`): a reload after an edit fetches
/// only what the rebuild changed, not the search module and index again.
fn validated(mut response: Response, if_none_match: Option<&str>) -> Response {
    if response.status != 200 {
        return response;
    }
    let etag = format!("\"{:016x}\"", kbook_search::content_hash(&response.body));
    let held = if_none_match.is_some_and(|v| {
        v.split(',')
            .any(|t| t.trim().trim_start_matches("w/") == etag || t.trim() == "*")
    });
    response.headers.push(("ETag".into(), etag));
    if held {
        response.status = 304;
        response.headers.retain(|(n, _)| n != "Content-Type");
        response.body = Vec::new();
    }
    response
}

/// Writes `response` with its length and the connection's fate.
fn write_response(
    w: &mut impl Write,
    response: &Response,
    head_only: bool,
    close: bool,
) -> io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n",
        response.status,
        reason(response.status)
    );
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    // A 304 has no body, and no length of one.
    if response.status != 304 {
        head.push_str(&format!("Content-Length: {}\r\n", response.body.len()));
    }
    head.push_str(&format!(
        "Connection: {}\r\n\r\n",
        if close { "close" } else { "keep-alive" }
    ));
    w.write_all(head.as_bytes())?;
    if !head_only {
        w.write_all(&response.body)?;
    }
    w.flush()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        304 => "Not Modified",
        405 => "Method Not Allowed",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn server() -> SocketAddr {
        let server = HttpServer::bind("127.0.0.1:0").unwrap();
        let addr = server.local_addr().unwrap();
        std::thread::spawn(move || {
            server.run(|rq, _| {
                Reply::Send(Response::new(
                    200,
                    "text/plain",
                    format!("hello {}", rq.url).into_bytes(),
                ))
            })
        });
        addr
    }

    /// Sends `req` and reads one response (headers and `Content-Length` bytes of body).
    fn exchange(s: &mut TcpStream, req: &str) -> String {
        s.write_all(req.as_bytes()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        let mut head = String::new();
        let mut len = 0usize;
        loop {
            let mut line = String::new();
            if r.read_line(&mut line).unwrap_or(0) == 0 {
                return head;
            }
            if let Some(v) = line.strip_prefix("Content-Length: ") {
                len = v.trim().parse().unwrap();
            }
            head.push_str(&line);
            if line == "\r\n" {
                break;
            }
        }
        if req.starts_with("HEAD") {
            return head;
        }
        let mut body = vec![0u8; len];
        r.read_exact(&mut body).unwrap();
        head + &String::from_utf8_lossy(&body)
    }

    const GET: &str = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n";

    #[test]
    fn new_connections_are_answered_while_others_stay_open() {
        // Connections kept open (kept-alive sockets, event streams) must not hold up a page's
        // next ones: tiny_http 0.12 left the second of two new connections unanswered here.
        let addr = server();
        for _ in 0..5 {
            let mut held: Vec<TcpStream> = (0..6)
                .map(|_| {
                    let mut s = TcpStream::connect(addr).unwrap();
                    assert!(exchange(&mut s, GET).contains("hello /a"));
                    s
                })
                .collect();
            let started = Instant::now();
            let mut fresh: Vec<TcpStream> =
                (0..4).map(|_| TcpStream::connect(addr).unwrap()).collect();
            for s in &mut fresh {
                assert!(exchange(s, GET).ends_with("hello /a"));
            }
            assert!(started.elapsed() < Duration::from_secs(4));
            held.clear();
        }
    }

    #[test]
    fn keeps_the_connection_alive_and_closes_on_request() {
        let addr = server();
        let mut s = TcpStream::connect(addr).unwrap();
        let first = exchange(&mut s, GET);
        assert!(first.starts_with("HTTP/1.1 200 OK\r\n"), "{first}");
        assert!(first.contains("Connection: keep-alive\r\n"));
        let second = exchange(&mut s, "GET /b HTTP/1.1\r\nConnection: close\r\n\r\n");
        assert!(second.contains("Connection: close\r\n") && second.ends_with("hello /b"));
        let mut rest = Vec::new();
        assert_eq!(s.read_to_end(&mut rest).unwrap(), 0, "not closed");
    }

    #[test]
    fn head_gets_the_length_without_the_body_and_other_methods_405() {
        let addr = server();
        let mut s = TcpStream::connect(addr).unwrap();
        let head = exchange(&mut s, "HEAD /abc HTTP/1.1\r\n\r\n");
        assert!(head.contains("Content-Length: 10\r\n") && head.ends_with("\r\n\r\n"));
        let post = exchange(&mut s, "POST /abc HTTP/1.1\r\nContent-Length: 3\r\n\r\nxyz");
        assert!(post.starts_with("HTTP/1.1 405 ") && post.contains("Allow: GET, HEAD"));
        // The body was skipped: the next request on the connection is read right.
        assert!(exchange(&mut s, GET).ends_with("hello /a"));
    }

    #[test]
    fn a_malformed_request_is_a_400_and_the_end_of_the_connection() {
        let addr = server();
        let mut s = TcpStream::connect(addr).unwrap();
        let bad = exchange(&mut s, "GARBAGE\r\n\r\n");
        assert!(bad.starts_with("HTTP/1.1 400 "), "{bad}");
        let mut rest = Vec::new();
        assert_eq!(s.read_to_end(&mut rest).unwrap(), 0);
    }

    #[test]
    fn a_body_the_client_holds_is_not_sent_again() {
        let addr = server();
        let mut s = TcpStream::connect(addr).unwrap();
        let first = exchange(&mut s, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        let etag = first
            .lines()
            .find_map(|l| l.strip_prefix("ETag: "))
            .unwrap()
            .to_string();
        assert!(first.ends_with("hello /a"), "{first}");
        // On the same connection: the same body is not sent, a changed one is.
        let again = exchange(
            &mut s,
            &format!("GET /a HTTP/1.1\r\nHost: x\r\nIf-None-Match: {etag}\r\n\r\n"),
        );
        assert!(
            again.starts_with("HTTP/1.1 304 Not Modified\r\n"),
            "{again}"
        );
        assert!(
            !again.contains("Content-Length") && !again.contains("hello"),
            "{again}"
        );
        let other = exchange(
            &mut s,
            &format!("GET /b HTTP/1.1\r\nHost: x\r\nIf-None-Match: {etag}\r\n\r\n"),
        );
        assert!(
            other.starts_with("HTTP/1.1 200 OK\r\n") && other.ends_with("hello /b"),
            "{other}"
        );
    }

    #[test]
    fn an_oversized_or_binary_head_ends_its_connection_only() {
        let addr = server();
        let mut long = TcpStream::connect(addr).unwrap();
        let huge = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_HEAD + 10));
        // The server may close before reading it all: a failed write is fine too.
        let _ = long.write_all(huge.as_bytes());
        long.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut rest = Vec::new();
        let _ = long.read_to_end(&mut rest);
        let said = String::from_utf8_lossy(&rest);
        assert!(said.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{said}");
        assert!(!said.contains("hello"));
        // Long headers after a short request line.
        let mut headers = TcpStream::connect(addr).unwrap();
        let many = format!(
            "GET /a HTTP/1.1\r\n{}\r\n",
            "X-Pad: 0123456789abcdef0123456789abcdef\r\n".repeat(MAX_HEAD / 40 + 2)
        );
        let _ = headers.write_all(many.as_bytes());
        headers
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut rest = Vec::new();
        let _ = headers.read_to_end(&mut rest);
        let said = String::from_utf8_lossy(&rest);
        assert!(
            said.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"),
            "{said}"
        );
        let mut binary = TcpStream::connect(addr).unwrap();
        let bad = exchange(&mut binary, "\u{0}\u{1}\u{fffd}\r\n\r\n");
        assert!(bad.starts_with("HTTP/1.1 400 "), "{bad}");
        // Other connections are served as before.
        let mut next = TcpStream::connect(addr).unwrap();
        assert!(exchange(&mut next, GET).ends_with("hello /a"));
    }
}
