export const id = 84;
export const ids = [84];
export const modules = {

/***/ 34084:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   actionsHost: () => (/* binding */ actionsHost)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(91659);
/**
 * The real ActionHost: the runner's, through @actions/core and @actions/artifact. The @actions
 * edge: this module is the only one under src/action/ (and in src/) that imports @actions/*, and
 * the only one that reads process.env for the action (__tests__/meta/actions-edge.test.ts holds it).
 * @actions/artifact is loaded on the first upload: it loads @actions/github, whose context parses
 * GITHUB_EVENT_PATH while loading and would end a bad event file in a stack trace, so it must come
 * after the action has read (and checked) that file itself.
 */

function artifactStore() {
    let client;
    const get = () => (client ??= __webpack_require__.e(/* import() */ 584).then(__webpack_require__.bind(__webpack_require__, 20584)).then(({ DefaultArtifactClient }) => new DefaultArtifactClient()));
    return {
        upload: async (name, files, root, options) => (await get()).uploadArtifact(name, [...files], root, options.retentionDays ? { retentionDays: options.retentionDays } : {}),
        delete: async (name) => {
            await (await get()).deleteArtifact(name);
        },
    };
}
function actionsHost() {
    return {
        getInput: (name) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4(name),
        env: process.env,
        debug: (text) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .debug */ .Yz(text),
        info: (text) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(text),
        notice: (text, properties) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .notice */ .lm(text, properties),
        warning: (text, properties) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(text, properties),
        error: (text, properties) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .error */ .z3(text, properties),
        group: (name, fn) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .group */ .Os(name, fn),
        setSecret: (value) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setSecret */ .Pq(value),
        setOutput: (name, value) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setOutput */ .uH(name, value),
        writeSummary: async (markdown) => {
            await _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .summary */ .z.addRaw(markdown, true).write();
        },
        setFailed: (message) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setFailed */ .C1(message),
        artifacts: artifactStore(),
    };
}


/***/ })

};
