import { BrowserRouter, Route, Routes } from 'react-router-dom';

function Home() {
  return (
    <main>
      <h1>Creative Gigs</h1>
      <p>A marketplace where creatives post gigs and hire each other.</p>
    </main>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/" element={<Home />} />
      </Routes>
    </BrowserRouter>
  );
}
