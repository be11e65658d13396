#include <string>

#include "data/data.hpp"
#include "data/rng.hpp"

namespace zest_bench {
namespace {

const char* const license =
    "// SPDX-License-Identifier: GPL-2.0-only\n"
    "/*\n"
    " * Copyright (C) 2009-2023 The Contributors\n"
    " *\n"
    " * This program is free software; you can redistribute it and/or modify\n"
    " * it under the terms of the GNU General Public License version 2 as\n"
    " * published by the Free Software Foundation.\n"
    " */\n\n";

const char* const headers[] = {
    "linux/kernel.h", "linux/module.h", "linux/slab.h", "linux/errno.h", "linux/list.h",
    "linux/spinlock.h", "linux/mutex.h", "linux/types.h", "linux/string.h", "linux/device.h",
    "linux/init.h", "linux/interrupt.h", "linux/delay.h", "linux/io.h", "linux/platform_device.h",
    "linux/of.h", "linux/workqueue.h", "linux/bitops.h", "linux/uaccess.h", "linux/wait.h"};
const char* const modules[] = {"usb", "net", "blk", "xfs", "dev", "pci", "snd", "drm", "ext4",
                               "nvme", "tcp", "sched", "mmc", "i2c", "spi", "hid", "btrfs", "vfs"};
const char* const nouns[] = {
    "buf", "len", "ctx", "node", "entry", "count", "offset", "size", "flags", "data", "priv",
    "dev", "req", "page", "queue", "lock", "state", "head", "list", "map", "key", "val", "idx",
    "pos", "cur", "next", "prev", "res", "msg", "hdr", "desc", "reg", "irq", "timer", "work",
    "mode", "cfg", "opt", "addr", "port", "id", "seq", "ring", "slot", "chan", "mask", "event"};
const char* const verbs[] = {
    "init", "alloc", "free", "get", "put", "read", "write", "lookup", "insert", "remove",
    "update", "reset", "start", "stop", "handle", "process", "check", "parse", "setup",
    "release", "enable", "disable", "flush", "sync", "open", "close", "submit", "complete"};
const char* const scalar_types[] = {"int", "unsigned int", "u32", "u64", "size_t", "bool",
                                    "u8", "u16", "long", "unsigned long", "loff_t", "int"};
const char* const errnos[] = {"EINVAL", "ENOMEM", "EIO", "EBUSY", "ENODEV", "EAGAIN", "EFAULT",
                              "ENOSPC", "ETIMEDOUT", "EPERM"};
const char* const comment_words[] = {
    "the", "a", "we", "must", "not", "be", "if", "is", "to", "this", "that", "it", "and",
    "already", "hold", "lock", "before", "after", "free", "buffer", "queue", "device", "when",
    "can", "only", "called", "with", "from", "interrupt", "context", "make", "sure", "check",
    "length", "caller", "returns", "zero", "on", "success", "error", "pending", "requests"};

struct file_state {
    std::string module;
    std::vector<std::string> types;      // struct names of this file
    std::vector<std::string> functions;  // functions defined so far
    std::vector<std::string> constants;
    std::vector<std::string> flags;
};

class writer {
public:
    writer(rng& r, std::string& out) : r_(r), out_(out) {}

    void file() {
        st_ = {};
        st_.module = pick(r_, modules);
        out_ += license;
        const int includes = static_cast<int>(r_.between(4, 10));
        for (int i = 0; i < includes; ++i) out_ += "#include <" + std::string(pick(r_, headers)) + ">\n";
        out_ += "\n#include \"" + st_.module + "_" + pick(r_, nouns) + ".h\"\n\n";
        for (int i = 0, n = static_cast<int>(r_.between(3, 9)); i < n; ++i) {
            std::string c = upper(st_.module + "_" + pick(r_, nouns) + "_" +
                                  (r_.chance(0.5) ? "MAX" : "SHIFT"));
            st_.constants.push_back(c);
            out_ += "#define " + c + "\t" + std::to_string(1 << r_.between(2, 12)) + "\n";
        }
        for (int i = 0, n = static_cast<int>(r_.between(2, 6)); i < n; ++i) {
            std::string f = upper(st_.module + "_F_" + pick(r_, nouns));
            st_.flags.push_back(f);
            out_ += "#define " + f + "\tBIT(" + std::to_string(i) + ")\n";
        }
        out_ += "\n";
        for (int i = 0, n = static_cast<int>(r_.between(1, 3)); i < n; ++i) structure();
        for (int i = 0, n = static_cast<int>(r_.between(8, 30)); i < n; ++i) function();
        out_ += "MODULE_LICENSE(\"GPL\");\n\n";
    }

private:
    static std::string upper(std::string s) {
        for (auto& c : s)
            if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        return s;
    }
    std::string type() { return st_.types.empty() ? "struct device" : "struct " + st_.types[r_.below(st_.types.size())]; }
    std::string var() { return pick(r_, nouns); }
    std::string field() { return pick(r_, nouns); }
    void indent(int depth) { out_.append(static_cast<std::size_t>(depth), '\t'); }

    void comment(int depth) {
        indent(depth);
        out_ += "/* ";
        for (int i = 0, n = static_cast<int>(r_.between(3, 12)); i < n; ++i) {
            if (i) out_ += ' ';
            out_ += pick(r_, comment_words);
        }
        out_ += ". */\n";
    }

    void structure() {
        const std::string name = st_.module + "_" + pick(r_, nouns);
        st_.types.push_back(name);
        out_ += "struct " + name + " {\n";
        for (int i = 0, n = static_cast<int>(r_.between(3, 10)); i < n; ++i) {
            out_ += '\t';
            if (r_.chance(0.2)) out_ += "struct list_head\t" + field() + ";\n";
            else if (r_.chance(0.15)) out_ += "spinlock_t\t\tlock;\n";
            else out_ += std::string(pick(r_, scalar_types)) + "\t\t\t" + field() + ";\n";
        }
        out_ += "};\n\n";
    }

    std::string condition() {
        switch (r_.below(6)) {
            case 0: return "!" + var();
            case 1: return var() + "->" + field() + " > " + st_.constants[r_.below(st_.constants.size())];
            case 2: return "ret < 0";
            case 3: return "(" + var() + "->flags & " + st_.flags[r_.below(st_.flags.size())] + ")";
            case 4: return var() + " == NULL";
            default: return "unlikely(" + var() + "->" + field() + " != " + var() + ")";
        }
    }

    std::string call_args() {
        std::string a = var();
        for (int i = 0, n = static_cast<int>(r_.below(3)); i < n; ++i) a += ", " + var();
        return a;
    }

    std::string callee() {
        if (!st_.functions.empty() && r_.chance(0.6)) return st_.functions[r_.below(st_.functions.size())];
        return st_.module + "_" + pick(r_, nouns) + "_" + pick(r_, verbs);
    }

    void statements(int depth, int count) {
        for (int i = 0; i < count; ++i) {
            const std::uint64_t k = r_.below(100);
            if (k < 6) {
                comment(depth);
            } else if (k < 22 && depth < 4) {
                indent(depth), out_ += "if (" + condition() + ") {\n";
                statements(depth + 1, static_cast<int>(r_.between(1, 3)));
                indent(depth), out_ += "}";
                if (r_.chance(0.25)) {
                    out_ += " else {\n";
                    statements(depth + 1, static_cast<int>(r_.between(1, 2)));
                    indent(depth), out_ += "}";
                }
                out_ += "\n";
            } else if (k < 30 && depth < 4) {
                const std::string v = var();
                indent(depth), out_ += "for (i = 0; i < " + v + "->" + field() + "; i++) {\n";
                statements(depth + 1, static_cast<int>(r_.between(1, 3)));
                indent(depth), out_ += "}\n";
            } else if (k < 46) {
                indent(depth), out_ += var() + "->" + field() + " = " + var() + ";\n";
            } else if (k < 62) {
                indent(depth), out_ += "ret = " + callee() + "(" + call_args() + ");\n";
                indent(depth), out_ += "if (ret < 0)\n";
                indent(depth + 1), out_ += "goto out;\n";
            } else if (k < 70) {
                const std::string v = var();
                indent(depth), out_ += "spin_lock(&" + v + "->lock);\n";
                indent(depth), out_ += "list_add_tail(&" + var() + "->" + field() + ", &" + v + "->list);\n";
                indent(depth), out_ += "spin_unlock(&" + v + "->lock);\n";
            } else if (k < 78) {
                indent(depth), out_ += "pr_debug(\"%s: " + std::string(pick(r_, comment_words)) + " " +
                                       field() + " %d\\n\", __func__, " + var() + "->" + field() + ");\n";
            } else if (k < 84) {
                const std::string v = var();
                indent(depth), out_ += "memset(" + v + ", 0, sizeof(*" + v + "));\n";
            } else if (k < 92) {
                indent(depth), out_ += callee() + "(" + call_args() + ");\n";
            } else {
                indent(depth), out_ += "if (" + condition() + ")\n";
                indent(depth + 1), out_ += "return -" + std::string(pick(r_, errnos)) + ";\n";
            }
        }
    }

    void function() {
        const std::string name = st_.module + "_" + pick(r_, nouns) + "_" + pick(r_, verbs);
        const std::string t = type();
        if (r_.chance(0.2)) comment(0);
        out_ += r_.chance(0.7) ? "static int " : "int ";
        out_ += name + "(" + t + " *" + var();
        for (int i = 0, n = static_cast<int>(r_.below(3)); i < n; ++i)
            out_ += std::string(", ") + pick(r_, scalar_types) + " " + var();
        out_ += ")\n{\n";
        out_ += "\tint ret = 0;\n";
        if (r_.chance(0.5)) out_ += "\tint i;\n";
        if (r_.chance(0.5)) out_ += "\t" + t + " *" + var() + " = " + var() + "->priv;\n";
        out_ += "\n";
        statements(1, static_cast<int>(r_.between(3, 12)));
        out_ += "out:\n\treturn ret;\n}\n";
        if (r_.chance(0.3)) out_ += "EXPORT_SYMBOL_GPL(" + name + ");\n";
        out_ += "\n";
        st_.functions.push_back(name);
    }

    rng& r_;
    std::string& out_;
    file_state st_;
};

}  // namespace

bytes make_source_code(std::size_t size, std::uint64_t seed) {
    rng r(seed);
    std::string text;
    text.reserve(size + 65536);
    writer w(r, text);
    while (text.size() < size) w.file();
    text.resize(size);
    bytes out;
    append(out, text);
    return out;
}

}  // namespace zest_bench
