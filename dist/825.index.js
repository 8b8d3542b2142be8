export const id = 825;
export const ids = [825];
export const modules = {

/***/ 37825:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   analyzeMode: () => (/* binding */ analyzeMode)
/* harmony export */ });
/* harmony import */ var _pipeline_analyze_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(11843);
/* harmony import */ var _io_gather_captures_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2017);
/* harmony import */ var _inputs_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(39030);
/* harmony import */ var _publish_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(65142);
/* harmony import */ var _baseline_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(26611);
/* harmony import */ var _run_info_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(35153);
/* harmony import */ var _io_families_file_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(61090);
/** Mode `analyze`: capture files that an earlier step produced → one report, published. */







async function analyzeMode(ctx) {
    const { files: captures, fromDirectories, skipped } = await (0,_io_gather_captures_js__WEBPACK_IMPORTED_MODULE_1__/* .gatherCaptures */ .xs)(ctx.inputs.captures, {
        policy: ctx.inputs.ifNoCaptures,
        option: `input '${_inputs_js__WEBPACK_IMPORTED_MODULE_2__/* .INPUTS */ .mc.ifNoCaptures}'`,
        warn: (line) => ctx.host.warning(line),
        strict: ctx.inputs.strict,
        strictOption: `input '${_inputs_js__WEBPACK_IMPORTED_MODULE_2__/* .INPUTS */ .mc.strict}'`,
    });
    const gate = (0,_baseline_js__WEBPACK_IMPORTED_MODULE_4__/* .gateOptions */ .O)(ctx);
    const { baseline, note } = await (0,_baseline_js__WEBPACK_IMPORTED_MODULE_4__/* .resolveBaseline */ .o)(ctx);
    const budget = ctx.inputs.analyzeTimeoutSeconds;
    let read = [];
    const families = ctx.inputs.families ? await (0,_io_families_file_js__WEBPACK_IMPORTED_MODULE_5__/* .loadFamilies */ .Z)(ctx.inputs.families) : [];
    const report = await (0,_pipeline_analyze_js__WEBPACK_IMPORTED_MODULE_0__/* .analyze */ .ns)({
        onCaptures: (captures) => (read = captures),
        inputs: captures,
        run: (0,_run_info_js__WEBPACK_IMPORTED_MODULE_6__/* .runInfo */ .Q)(ctx),
        baseline,
        gate,
        diagnose: { options: ctx.inputs.ruleOptions },
        families,
        allowMixed: ctx.inputs.allowMixed,
        ...(ctx.inputs.strict ? {} : { skippable: fromDirectories }),
        ...(skipped.length ? { skippedInputs: skipped } : {}),
        ...(ctx.inputs.smiColumns ? { ingest: { smiColumns: ctx.inputs.smiColumns } } : {}),
        ...(budget ? { timeoutMs: budget * 1000 } : {}),
    });
    await (0,_publish_js__WEBPACK_IMPORTED_MODULE_3__/* .publishReport */ .S3)(ctx, { report, extraFiles: captures, captures: read, ...(note ? { baselineNote: note } : {}) });
}


/***/ })

};
