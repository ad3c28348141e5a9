import CoreTesting
import Foundation
import Testing

/// A terminal that answers nothing (no cursor report, no device attributes): the screen asks its widths, never
/// waits for them before the first frame, keeps Unicode's widths and gives the terminal back as it found it.
/// The terminal is a pseudo-terminal a python harness holds and never answers on.
@Suite(.serialized) struct SilentTerminalTests {
    /// Runs `arguments` on a pseudo-terminal nobody answers on, 80×24. The harness reads what the program writes;
    /// once a card's skeleton (the first frame) is there it creates `release` (letting the held answer go), and
    /// it reports, as JSON: where the question and the first frame are in the output, the exit status, the
    /// output, and whether echo and line editing were back when the program ended.
    func run(_ arguments: [String], release: URL) async throws -> [String: Any] {
        let harness = """
            import json,os,pty,select,sys,termios,time,struct,fcntl
            binary,release=sys.argv[1],sys.argv[2]
            pid,fd=pty.fork()
            if pid==0:
                os.execv(binary,[binary]+sys.argv[3:])
            fcntl.ioctl(fd,termios.TIOCSWINSZ,struct.pack("HHHH",24,80,0,0))
            out=b""; frame=-1; settings=None; status=None; end=time.time()+120
            while time.time()<end:
                ready,_,_=select.select([fd],[],[],0.05)
                if ready:
                    try: chunk=os.read(fd,65536)
                    except OSError: chunk=b""
                    if not chunk: break
                    out+=chunk
                    if frame<0 and "░".encode() in out:
                        frame=out.index("░".encode()); open(release,"w").close()
                if status is None:
                    done,code=os.waitpid(pid,os.WNOHANG)
                    if done:
                        status=code
                        try: settings=termios.tcgetattr(fd)
                        except termios.error: settings=None
            while status is None and time.time()<end+10:
                done,code=os.waitpid(pid,os.WNOHANG)
                if done: status=code
                else: time.sleep(0.02)
            if status is None:
                os.kill(pid,9); os.waitpid(pid,0)
            if settings is None:
                try: settings=termios.tcgetattr(fd)
                except termios.error: settings=None
            lflag=settings[3] if settings else None
            print(json.dumps({"question":out.find(b"\\x1b[?2027$p"),"frame":frame,
                "status":os.waitstatus_to_exitcode(status) if status is not None else None,
                "echo":None if lflag is None else bool(lflag&termios.ECHO and lflag&termios.ICANON),
                "output":out.decode("utf-8","replace")}))
            """
        let result = try await ProcessRunner.run(
            "python3", ["-c", harness, CLI.binary, release.path] + arguments,
            environment: CLI.environment.merging(["TERM": "xterm-256color"]) { $1 }, limit: .seconds(180))
        return try CLI.json(result.stdout)
    }

    /// The first frame (every card a skeleton while the rider's answer is held) is drawn with the question
    /// unanswered: it is written after the question and before anything could answer it. The run then ends
    /// as before, Unicode's widths, the terminal's echo and line editing back.
    @Test func aTerminalThatAnswersNothingGetsItsFirstFrameAtOnceAndIsGivenBack() async throws {
        let held = try HeldAnswer(root: CLI.fixtures, path: "orders/9012/delivery.json")
        let report = try await run(
            ["9012", "--timeout", "600", "--api", held.server.baseURL.absoluteString], release: held.gate)
        let output = report["output"] as? String ?? ""
        let question = report["question"] as? Int ?? -1
        let frame = report["frame"] as? Int ?? -1
        #expect(question >= 0, "the screen asked:\n\(output)")
        #expect(frame > question, "the first frame came after the question, unanswered:\n\(output)")
        #expect(report["status"] as? Int == 0, "\(output)")
        #expect(output.contains("╰") && !output.hasSuffix("░"), "\(output)")
        #expect(!output.contains("2027h") || output.contains("?2027$p"), "asked before turning anything on")
        #expect(!output.contains("\u{1B}[?2027l"), "nothing said clustering was turned on: nothing to turn off")
        if let echo = report["echo"] as? Bool { #expect(echo, "echo and line editing are back") }
    }

    /// `--plain` on the same terminal asks nothing: no question, no bytes but the frame.
    @Test func plainOutputAsksNothing() async throws {
        let held = try HeldAnswer(root: CLI.fixtures, path: "orders/9012/delivery.json")
        held.release()
        let report = try await run(
            ["9012", "--plain", "--api", held.server.baseURL.absoluteString], release: held.gate)
        let output = report["output"] as? String ?? ""
        #expect(report["question"] as? Int == -1 && !output.contains("\u{1B}[6n"), "\(output)")
        #expect(report["status"] as? Int == 0, "\(output)")
    }
}
