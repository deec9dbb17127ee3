/** Tailwind CSS v4 runs as a single PostCSS plugin; no tailwind.config is needed. */
const config = {
  plugins: { '@tailwindcss/postcss': {} },
};

export default config;
