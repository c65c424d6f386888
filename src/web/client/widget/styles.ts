// The widget's styles, inside its shadow root (the host page's CSS does not reach them). Text and
// controls keep 4.5:1 contrast on white; at 480 px and below the panel takes the whole screen.
export const STYLES = `
:host{all:initial}
*{box-sizing:border-box;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a}
[hidden]{display:none!important}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
button{cursor:pointer;border-radius:6px;border:1px solid #5c5c5c;background:#fff;padding:6px 12px}
button:focus-visible,textarea:focus-visible,input:focus-visible,a:focus-visible,label:focus-within{outline:3px solid #1a1a1a;outline-offset:2px}
.launcher{position:fixed;bottom:20px;z-index:2147483646;width:56px;height:56px;border-radius:50%;border:0;background:var(--tbw-color,#1f5fbf);color:var(--tbw-on,#fff);font-size:26px;font-weight:700;box-shadow:0 4px 14px rgba(0,0,0,.3)}
.left{left:20px}.right{right:20px}
.panel{position:fixed;bottom:88px;z-index:2147483647;width:370px;max-width:calc(100vw - 40px);height:560px;max-height:calc(100vh - 110px);display:flex;flex-direction:column;background:#fff;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.3);overflow:hidden}
header{display:flex;align-items:center;justify-content:space-between;padding:10px 14px;background:var(--tbw-color,#1f5fbf)}
header h2{margin:0;font-size:17px;font-weight:600;color:var(--tbw-on,#fff)}
header .close{border:0;background:transparent;color:var(--tbw-on,#fff);font-size:24px;padding:0 6px}
.composer{order:3;display:flex;flex-wrap:wrap;gap:6px;align-items:flex-end;padding:10px;border-top:1px solid #ddd}
textarea{flex:1 1 200px;resize:none;border:1px solid #767676;border-radius:6px;padding:8px}
.send{background:var(--tbw-color,#1f5fbf);color:var(--tbw-on,#fff);border:0}
input[type=file]{position:absolute;width:1px;height:1px;opacity:0}
.attach{border:1px solid #5c5c5c;border-radius:6px;padding:6px 10px;cursor:pointer}
.picked{font-size:13px}
.log{order:1;flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:10px}
.msg{max-width:88%;padding:8px 12px;border-radius:10px;background:#f1f1f1;overflow-wrap:anywhere}
.msg p{margin:0 0 6px}.msg p:last-child{margin:0}
.msg.visitor{align-self:flex-end;background:#e6eefb}
.msg.team{background:#fff6dc}
.who{font-size:12px;font-weight:600}
.msg ul,.msg ol{margin:4px 0;padding-left:20px}
.sources{font-size:13px;border-top:1px solid #ccc;margin-top:6px;padding-top:4px;list-style:none;padding-left:0}
.sources:before{content:"Sources";display:block;font-weight:600;font-size:12px}
a{color:#0b4fa8}
code{font-family:ui-monospace,monospace;background:#e4e4e4;padding:0 3px;border-radius:3px}
.status{order:2;margin:0;padding:0 12px;font-size:14px}
.status:empty{display:none}
.human{order:2;margin:4px 12px}
.handoff{order:2;display:flex;flex-direction:column;gap:4px;padding:8px 12px;border-top:1px solid #ddd}
.handoff input{border:1px solid #767676;border-radius:6px;padding:6px}
.handoff button{align-self:flex-start;margin-top:4px;background:var(--tbw-color,#1f5fbf);color:var(--tbw-on,#fff);border:0}
.rating fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:8px}
.rating legend{font-weight:600;padding:0;margin-bottom:4px}
.score{display:inline-flex;align-items:center;gap:3px}
@media (max-width:480px){.panel{inset:0;width:100vw;max-width:none;height:100%;max-height:none;border-radius:0}}
`;
