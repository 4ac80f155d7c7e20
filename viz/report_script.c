/* report_script.c: the report's one inline script and the hash that lets
 * the page's Content-Security-Policy run it and nothing else.
 *
 * The script (plain JavaScript, no library) makes the page interactive;
 * without it every row and figure is still there:
 *   - a table of class "data": a click (or Enter) on a column header sorts
 *     the rows, numbers by their data-v value and largest first, text in
 *     alphabetical order; a second click reverses, a third restores the
 *     page's order; aria-sort tells which;
 *   - a table of more than FOLD rows and a list (class "list") of more
 *     than FOLD items show the first FOLD, with a button "show all N";
 *   - a figure (class "fig") gets zoom buttons (−, +, fit, 100 %),
 *     ctrl+wheel zooms about the pointer and a drag pans.  It opens at its
 *     natural size, or smaller to fit the window as long as its smallest
 *     text stays 11 pixels high, larger when its smallest text is under 11
 *     pixels; it scrolls inside its frame.
 *   - <html> gets the class "js" (the tests see that the script ran). */
#include <stdint.h>
#include <string.h>

#include "report_int.h"

/* Rows and list items shown before "show all"; the style sheet's
 * nth-child(n+51) says the same. */
static const char *const script[] = {
    "(function(){'use strict';\n",
    "var d=document,FOLD=50,each=function(l,f){Array.prototype.forEach.call(l,f);};\n",
    "d.documentElement.classList.add('js');\n",
    /* sorting */
    "function key(c){var v=c?c.getAttribute('data-v'):null;return v===null?NaN:parseFloat(v);}\n",
    "function blank(c){return !c||!c.textContent.trim();}\n",
    "each(d.querySelectorAll('table.data'),function(t){\n",
    " var b=t.tBodies[0],h=t.tHead;if(!b||!h||b.rows.length<2)return;\n",
    " each(b.rows,function(r,i){r.setAttribute('data-i',i);});\n",
    " var heads=h.rows[0].cells;\n",
    " each(heads,function(th,col){\n",
    "  th.tabIndex=0;th.classList.add('sortable');th.title='sort by this column';\n",
    "  function go(){\n",
    "   var rows=Array.prototype.slice.call(b.rows),state=th.getAttribute('aria-sort');\n",
    "   var num=rows.every(function(r){var c=r.cells[col];return blank(c)||!isNaN(key(c));});\n",
    "   var first=num?'descending':'ascending',other=num?'ascending':'descending';\n",
    "   var next=!state?first:state===first?other:null;\n",
    "   each(heads,function(o){o.removeAttribute('aria-sort');});\n",
    "   var dir=next==='ascending'?1:-1;\n",
    "   rows.sort(function(x,y){\n",
    "    var i=+x.getAttribute('data-i')-y.getAttribute('data-i');\n",
    "    if(!next)return i;\n",
    "    var a=x.cells[col],c=y.cells[col],ea=blank(a),ec=blank(c);\n",
    "    if(ea||ec)return ea&&ec?i:ea?1:-1;\n",
    "    var r=num?key(a)-key(c):a.textContent.trim().localeCompare(c.textContent.trim(),"
    "undefined,{numeric:true});\n",
    "    return r?dir*r:i;});\n",
    "   if(next)th.setAttribute('aria-sort',next);\n",
    "   rows.forEach(function(r){b.appendChild(r);});}\n",
    "  th.addEventListener('click',go);\n",
    "  th.addEventListener('keydown',function(e){if(e.key==='Enter'||e.key===' '){"
    "e.preventDefault();go();}});});});\n",
    /* folding */
    "function fold(box,n,what){\n",
    " if(n<=FOLD)return;\n",
    " var btn=d.createElement('button');btn.type='button';btn.className='fold';\n",
    " function set(open){box.classList.toggle('folded',!open);\n",
    "  btn.textContent=open?'show the first '+FOLD+' '+what:'show all '+n+' '+what;\n",
    "  btn.setAttribute('aria-expanded',open?'true':'false');}\n",
    " btn.addEventListener('click',function(){set(box.classList.contains('folded'));});\n",
    " box.parentNode.insertBefore(btn,box.nextSibling);set(false);}\n",
    "each(d.querySelectorAll('table.data'),function(t){"
    "if(t.tBodies[0])fold(t,t.tBodies[0].rows.length,'rows');});\n",
    "each(d.querySelectorAll('.list'),function(l){fold(l,l.children.length,'items');});\n",
    /* zoom and pan */
    "each(d.querySelectorAll('.fig'),function(fig){\n",
    " var box=fig.querySelector('.figure'),svg=box&&box.querySelector('svg');if(!svg)return;\n",
    " var r=svg.getBoundingClientRect(),W=r.width,H=r.height,small=Infinity,z=1;\n",
    " if(!(W>0&&H>0))return;\n",
    " each(Array.prototype.slice.call(svg.querySelectorAll('text'),0,3000),function(x){\n",
    "  var m=x.getScreenCTM();if(!m||!x.textContent.trim())return;\n",
    "  var px=parseFloat(getComputedStyle(x).fontSize)*Math.sqrt(m.a*m.a+m.b*m.b);\n",
    "  if(px>0&&px<small)small=px;});\n",
    " var bar=d.createElement('div'),label=d.createElement('span');bar.className='zoom';\n",
    " function fit(){return (box.clientWidth-20)/W;}\n",
    " function set(nz,cx,cy){\n",
    "  nz=Math.max(0.01,Math.min(nz,16));\n",
    "  if(cx===undefined){cx=box.clientWidth/2;cy=box.clientHeight/2;}\n",
    "  var sx=(box.scrollLeft+cx)/(W*z),sy=(box.scrollTop+cy)/(H*z);z=nz;\n",
    "  svg.style.width=W*z+'px';svg.style.height=H*z+'px';\n",
    "  box.scrollLeft=sx*W*z-cx;box.scrollTop=sy*H*z-cy;\n",
    "  label.textContent=Math.round(z*100)+' %';}\n",
    " [['out','\\u2212','zoom out',function(){set(z/1.25);}],\n",
    "  ['in','+','zoom in',function(){set(z*1.25);}],\n",
    "  ['fit','fit','fit the width',function(){set(fit());}],\n",
    "  ['one','100 %','natural size',function(){set(1);}]].forEach(function(a){\n",
    "  var k=d.createElement('button');k.type='button';k.setAttribute('data-z',a[0]);\n",
    "  k.textContent=a[1];k.title=a[2];k.addEventListener('click',a[3]);bar.appendChild(k);});\n",
    " bar.appendChild(label);\n",
    " var tip=d.createElement('span');tip.className='tip';\n",
    " tip.textContent='ctrl + wheel zooms, drag pans';bar.appendChild(tip);\n",
    " fig.insertBefore(bar,box);\n",
    " set(Math.max(Math.min(1,fit()),small<Infinity?11/small:0),0,0);\n",
    " box.addEventListener('wheel',function(e){if(!e.ctrlKey&&!e.metaKey)return;\n",
    "  e.preventDefault();var q=box.getBoundingClientRect();\n",
    "  set(z*Math.pow(1.002,-e.deltaY),e.clientX-q.left,e.clientY-q.top);},{passive:false});\n",
    " var drag=null;\n",
    " box.addEventListener('pointerdown',function(e){\n",
    "  if(e.button!==0||e.pointerType!=='mouse')return;\n",
    "  drag={x:e.clientX,y:e.clientY,l:box.scrollLeft,t:box.scrollTop};\n",
    "  box.setPointerCapture(e.pointerId);box.classList.add('drag');e.preventDefault();});\n",
    " box.addEventListener('pointermove',function(e){if(!drag)return;\n",
    "  box.scrollLeft=drag.l-(e.clientX-drag.x);box.scrollTop=drag.t-(e.clientY-drag.y);});\n",
    " ['pointerup','pointercancel'].forEach(function(n){box.addEventListener(n,function(){\n",
    "  drag=null;box.classList.remove('drag');});});});\n",
    "})();\n"};

/* ------------------------------------------------------------------ */
/* SHA-256 (FIPS 180-4), for the policy's 'sha256-...' source          */

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (i = 0; i < 64; i++) {
        t1 = k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

static void sha256(const void *data, size_t len, unsigned char out[32])
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const unsigned char *p = data;
    unsigned char last[128];
    size_t i, rest = len % 64, nlast = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (i = 0; i + 64 <= len; i += 64)
        block(h, p + i);
    memset(last, 0, sizeof last);
    memcpy(last, p + i, rest);
    last[rest] = 0x80;
    for (i = 0; i < 8; i++)
        last[nlast - 1 - i] = (unsigned char)(bits >> (8 * i));
    block(h, last);
    if (nlast == 128)
        block(h, last + 64);
    for (i = 0; i < 32; i++)
        out[i] = (unsigned char)(h[i / 4] >> (24 - 8 * (i % 4)));
}

/* The script in one piece (ISO C caps a string literal at 4095 bytes). */
static void whole(mmm__text *t)
{
    size_t i;
    for (i = 0; i < sizeof script / sizeof script[0]; i++)
        mmm__text_put(t, script[i]);
}

void mmm__report_script_hash(mmm__text *t)
{
    static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned char dg[33];
    char out[48];
    size_t i, o = 0;
    mmm__text js;
    mmm__text_init(&js);
    whole(&js);
    if (js.oom || !js.s) { /* the caller's text fails the same way */
        t->oom = 1;
        mmm__text_dispose(&js);
        return;
    }
    sha256(js.s, js.len, dg);
    mmm__text_dispose(&js);
    dg[32] = 0;
    for (i = 0; i < 33; i += 3) { /* 32 bytes: 10 groups and one of two */
        uint32_t v = (uint32_t)dg[i] << 16 | (uint32_t)dg[i + 1] << 8 |
                     (i + 2 < 33 ? dg[i + 2] : 0);
        out[o++] = b64[v >> 18 & 63];
        out[o++] = b64[v >> 12 & 63];
        out[o++] = i + 1 < 32 ? b64[v >> 6 & 63] : '=';
        out[o++] = i + 2 < 32 ? b64[v & 63] : '=';
    }
    out[o] = '\0';
    mmm__text_printf(t, "'sha256-%s'", out);
}

void mmm__report_script(mmm__text *t)
{
    mmm__text_put(t, "<script>");
    whole(t);
    mmm__text_put(t, "</script>\n");
}
