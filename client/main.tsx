performance.mark('app:main');
import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadFirstPage } from './app/app';
import { beginSessionCheck } from './app/session';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
beginSessionCheck();
void preloadFirstPage(location.pathname).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
